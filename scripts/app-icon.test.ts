import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { getConfig } from 'app-builder-lib/out/util/config/config';
import { describe, expect, it } from 'vitest';
import { mainWindowOptions } from '../src/main/electron/window-options';

// The app has its own icon everywhere a person sees one: installers (electron-builder.yml), the
// window and taskbar (BrowserWindow icon), and the browser tab of the web shell (favicon).

const root = fileURLToPath(new URL('../', import.meta.url));
const read = (rel: string) => readFileSync(join(root, rel), 'utf8');

describe('the app icon', () => {
  it('is the window icon: main passes resources/icon.png (an electron-vite ?asset import) to the window', () => {
    expect(mainWindowOptions('/app/out/preload/index.cjs', '/app/resources/icon.png')).toMatchObject({ icon: '/app/resources/icon.png' });
    expect(mainWindowOptions('/app/out/preload/index.cjs')).not.toHaveProperty('icon');
    const main = read('src/main/electron/main.ts');
    expect(main).toMatch(/import iconPath from '\.\.\/\.\.\/\.\.\/resources\/icon\.png\?asset';/);
    expect(main).toContain("mainWindowOptions(join(mainDir, '..', 'preload', 'index.cjs'), iconPath)");
  });

  it('is packaged, so the built main process finds it inside the app', async () => {
    const config = await getConfig(root, null, null);
    const patterns = JSON.stringify(config.files);
    expect(patterns).toContain('"out/**"');
    expect(patterns).toContain('"resources/icon.png"');
  });

  it('is the web page\'s favicon, an SVG of the same marker, allowed by the strict CSP (img-src \'self\')', () => {
    const html = read('src/renderer/index.html');
    expect(html).toContain('<link rel="icon" type="image/svg+xml" href="./favicon.svg" />');
    expect(html).toMatch(/img-src 'self' data:/);
    const svg = read('src/renderer/public/favicon.svg');
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" viewBox="0 0 512 512">/);
    // Nothing a favicon could fetch or run.
    expect(svg).not.toMatch(/<script|href=|url\((?!#)/);
  });
});
