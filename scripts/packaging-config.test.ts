import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DebugLogger } from 'builder-util';
import { getConfig, validateConfiguration } from 'app-builder-lib/out/util/config/config';
import type { Configuration } from 'app-builder-lib';
import { unknownKeys } from './packaging/scheme-keys';

/**
 * electron-builder.yml, checked offline the way electron-builder 26 itself reads and validates
 * it (its own loader and scheme.json), plus what Waypoint requires of a release build.
 */
const root = fileURLToPath(new URL('../', import.meta.url));
const require = createRequire(import.meta.url);
const scheme = require('app-builder-lib/scheme.json');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  main: string;
  productName: string;
  scripts: Record<string, string>;
  devDependencies: Record<string, string>;
};
const raw = readFileSync(join(root, 'electron-builder.yml'), 'utf8');
const load = () => getConfig(root, null, null);
const validate = (config: Configuration) => validateConfiguration(config, new DebugLogger(false));

/** Width and height from a PNG's IHDR chunk (after the 8-byte signature). */
function pngSize(file: string): { width: number; height: number } {
  const data = readFileSync(file);
  expect(data.subarray(0, 8).toString('hex'), `${file} is a PNG`).toBe('89504e470d0a1a0a');
  expect(data.subarray(12, 16).toString('latin1')).toBe('IHDR');
  return { width: data.readUInt32BE(16), height: data.readUInt32BE(20) };
}

function targetNames(target: unknown): string[] {
  const list = Array.isArray(target) ? target : [target];
  return list.map((t) => (typeof t === 'string' ? t : (t as { target: string }).target));
}

describe('electron-builder.yml', () => {
  it('is what electron-builder 26 loads, and its own schema validation accepts it', async () => {
    expect(pkg.devDependencies['electron-builder']).toMatch(/^26\./);
    expect(raw).toMatch(/^appId:/m);
    const config = await load();
    await expect(validate(config)).resolves.toBeUndefined();
  });

  it('uses only keys that scheme.json knows (and the check catches a typo)', async () => {
    const config = await load();
    expect(unknownKeys(scheme, config)).toEqual([]);
    expect(unknownKeys(scheme, { ...config, electronFuses: { ...config.electronFuses, runAsnode: false } })).toEqual(['electronFuses.runAsnode']);
    expect(unknownKeys(scheme, { ...config, mac: { ...config.mac, target: [{ target: 'dmg', archs: ['universal'] }] } })).toEqual(['mac.target[0].archs']);
    await expect(validate({ ...config, electronFuses: { ...config.electronFuses, runAsnode: false } } as Configuration)).rejects.toThrow(/electronFuses/);
  });

  it('names the app and packages the built output as an asar, with no file associations', async () => {
    const config = await load();
    expect(config.appId).toBe('dev.waypoint.app');
    expect(config.productName).toBe('Waypoint');
    expect(pkg.productName).toBe('Waypoint');
    expect(config.asar).toBe(true);
    expect(config.fileAssociations).toEqual([]);
    expect(config.directories).toMatchObject({ buildResources: 'resources', output: 'dist' });
    expect(JSON.stringify(config.files)).toContain('out/**');
  });

  it('builds AppImage and deb on Linux, a universal dmg on macOS, and nsis on Windows', async () => {
    const config = await load();
    expect(targetNames(config.linux?.target)).toEqual(['AppImage', 'deb']);
    expect(config.linux?.maintainer, 'deb needs a maintainer').toBeTruthy();
    expect(targetNames(config.mac?.target)).toEqual(['dmg']);
    expect((config.mac?.target as Array<{ arch: string[] }>)[0]!.arch).toEqual(['universal']);
    expect(targetNames(config.win?.target)).toEqual(['nsis']);
  });

  it('uses resources/icon.png, a 512×512 PNG, on every OS', async () => {
    const config = await load();
    for (const os of [config.linux, config.mac, config.win]) expect(os?.icon).toBe('resources/icon.png');
    expect(pngSize(join(root, 'resources/icon.png'))).toEqual({ width: 512, height: 512 });
  });

  it('sets the production fuses', async () => {
    const config = await load();
    expect(config.electronFuses).toMatchObject({
      runAsNode: false,
      enableCookieEncryption: true,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
      // Safe because the renderer is served on app://, not file:// (src/main/electron/app-protocol.ts).
      grantFileProtocolExtraPrivileges: false,
    });
  });
});

describe('package.json for packaging', () => {
  it('points main at the built Electron entry', () => {
    expect(pkg.main).toBe('out/main/index.js');
    const vite = readFileSync(join(root, 'electron.vite.config.ts'), 'utf8');
    expect(vite).toMatch(/index: resolve\('src\/main\/electron\/main\.ts'\)/);
  });

  it('builds with electron-vite and packages for the current platform without publishing', () => {
    expect(pkg.scripts.build).toBe('electron-vite build');
    expect(pkg.scripts.dist).toBe('electron-vite build && electron-builder --publish never');
  });
});
