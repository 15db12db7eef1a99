import { describe, expect, it } from 'vitest';
import { EventEmitter } from 'node:events';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CONTENT_SECURITY_POLICY } from '../app/csp';
import { APP_INDEX_URL } from './app-protocol';
import { externalUrlToOpen, isAppUrl } from './navigation-policy';
import { rendererSource } from './renderer-source';
import { isTrustedSender } from './sender-check';
import { denyAllPermissions, guardWebContents, type GuardableContents, type PreventableEvent } from './web-contents-guard';
import { mainWindowOptions } from './window-options';

/**
 * Electron's security checklist (https://www.electronjs.org/docs/latest/tutorial/security),
 * item by item, against the real window options, CSP, policies and wiring. The numbers are
 * the checklist's. Wiring that only exists inside Electron (harden.ts, main.ts, ipc-bridge.ts,
 * preload) is checked in its source, since no Electron binary runs here.
 */
const root = fileURLToPath(new URL('../../../', import.meta.url));
const source = (rel: string) => readFileSync(join(root, rel), 'utf8');
const prefs = mainWindowOptions('/app/out/preload/index.cjs').webPreferences as Record<string, unknown>;

/** Parses "a x y; b z" into {a: [x, y], b: [z]}. */
function directives(csp: string): Record<string, string[]> {
  return Object.fromEntries(
    csp
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((parts) => parts[0])
      .map(([name, ...values]) => [name!.toLowerCase(), values]),
  );
}

function metaCsp(html: string): string {
  const match = /<meta\s+http-equiv="Content-Security-Policy"\s+content="([^"]+)"/i.exec(html);
  if (!match) throw new Error('index.html has no Content-Security-Policy meta tag');
  return match[1]!;
}

/** A WebContents stand-in with Electron's event shapes: emit like Chromium would. */
class Contents extends EventEmitter implements GuardableContents {
  openHandler: ((details: { url: string }) => { action: 'deny' }) | null = null;
  setWindowOpenHandler(handler: (details: { url: string }) => { action: 'deny' }): void {
    this.openHandler = handler;
  }
  fire(event: string, url: string): boolean {
    let prevented = false;
    const e: PreventableEvent = { preventDefault: () => (prevented = true) };
    this.emit(event, e, url);
    return prevented;
  }
}

function guarded() {
  const offered: string[] = [];
  const contents = new Contents();
  guardWebContents(contents, (url) => offered.push(url));
  return { contents, offered };
}

describe('Electron security checklist', () => {
  it('1. only secure content: the app page is app:// (or the dev server when unpackaged), never remote', () => {
    const packaged = rendererSource('/app/out/main', { ELECTRON_RENDERER_URL: 'http://evil.example' }, true);
    expect(packaged.url).toBe(APP_INDEX_URL);
    expect(rendererSource('/app/out/main', {}, false).url).toBe(APP_INDEX_URL);
    // index.html references nothing outside the app (no http(s) script, style or image).
    const html = source('src/renderer/index.html');
    expect(html).not.toMatch(/(src|href)\s*=\s*["']?(https?:)?\/\//i);
    // The CSP backs this up: everything is 'self' (images may also be data:).
    const d = directives(CONTENT_SECURITY_POLICY);
    for (const name of ['default-src', 'script-src', 'style-src', 'connect-src']) expect(d[name], name).toEqual(["'self'"]);
    expect(d['img-src']).toEqual(["'self'", 'data:']);
  });

  it('2. Node.js integration is off for the page, its workers and its subframes', () => {
    expect(prefs.nodeIntegration).toBe(false);
    expect(prefs.nodeIntegrationInWorker).toBe(false);
    expect(prefs.nodeIntegrationInSubFrames).toBe(false);
  });

  it('3. context isolation is on, and 4. the renderer is sandboxed', () => {
    expect(prefs.contextIsolation).toBe(true);
    expect(prefs.sandbox).toBe(true);
    expect(typeof prefs.preload).toBe('string');
  });

  it('5. every permission request and check is denied, and harden.ts installs exactly those handlers', () => {
    let granted: boolean | null = null;
    for (const permission of ['media', 'geolocation', 'notifications', 'clipboard-read', 'openExternal', 'fullscreen']) {
      denyAllPermissions.request(null, permission, (g) => (granted = g));
      expect(granted, permission).toBe(false);
    }
    expect(denyAllPermissions.check()).toBe(false);
    const harden = source('src/main/electron/harden.ts');
    expect(harden).toContain('setPermissionRequestHandler(denyAllPermissions.request)');
    expect(harden).toContain('setPermissionCheckHandler(denyAllPermissions.check)');
  });

  it('6. webSecurity stays on, 8. no insecure content, 9. no experimental features, 10. no enableBlinkFeatures', () => {
    expect(prefs.webSecurity).toBe(true);
    expect(prefs.allowRunningInsecureContent).toBe(false);
    expect(prefs.experimentalFeatures).toBe(false);
    expect(prefs).not.toHaveProperty('enableBlinkFeatures');
    // Middle-click (auxclick) cannot open a window around the window-open handler.
    expect(prefs.disableBlinkFeatures).toBe('Auxclick');
  });

  it('7. a CSP without unsafe-eval or unsafe-inline scripts, the same in the header and the HTML', () => {
    const header = directives(CONTENT_SECURITY_POLICY);
    const fromHtml = metaCsp(source('src/renderer/index.html'));
    expect(directives(fromHtml)).toEqual(header);
    const built = join(root, 'out', 'renderer', 'index.html');
    if (existsSync(built)) expect(directives(metaCsp(readFileSync(built, 'utf8')))).toEqual(header);
    const scripts = header['script-src'] ?? header['default-src']!;
    expect(scripts.join(' ')).not.toMatch(/unsafe-eval|unsafe-inline|unsafe-hashes|wasm-unsafe-eval|\*|https?:|data:/);
    expect(header['object-src']).toEqual(["'none'"]);
    expect(header['base-uri']).toEqual(["'none'"]);
    expect(header['frame-ancestors']).toEqual(["'none'"]);
    expect(header['form-action']).toEqual(["'none'"]);
    // harden.ts sets it on every response of the session as well.
    expect(source('src/main/electron/harden.ts')).toContain("'Content-Security-Policy': [CONTENT_SECURITY_POLICY]");
  });

  it('11. no <webview>: the tag is disabled and attaching one is prevented', () => {
    expect(prefs.webviewTag).toBe(false);
    expect(guarded().contents.fire('will-attach-webview', 'https://evil.example/')).toBe(true);
  });

  it('13. navigation is limited: every navigation and redirect is prevented; web links go to the consent prompt', () => {
    const { contents, offered } = guarded();
    expect(contents.fire('will-navigate', 'https://evil.example/phish')).toBe(true);
    expect(contents.fire('will-navigate', 'file:///etc/passwd')).toBe(true);
    expect(contents.fire('will-navigate', APP_INDEX_URL)).toBe(true);
    expect(contents.fire('will-redirect', 'https://evil.example/')).toBe(true);
    expect(offered).toEqual(['https://evil.example/phish', 'file:///etc/passwd', APP_INDEX_URL]);
    // ...where only http(s) survives (the consent prompt itself is in external-link.test.ts).
    expect(offered.map(externalUrlToOpen)).toEqual(['https://evil.example/phish', null, null]);
    expect(prefs.navigateOnDragDrop).toBe(false);
  });

  it('14. new windows are denied, whatever the URL', () => {
    const { contents, offered } = guarded();
    for (const url of ['https://example.com/', 'about:blank', 'javascript:alert(1)', APP_INDEX_URL]) {
      expect(contents.openHandler!({ url }), url).toEqual({ action: 'deny' });
    }
    expect(offered).toHaveLength(4);
    // Every webContents gets the guards, not just the main window.
    expect(source('src/main/electron/harden.ts')).toMatch(/app\.on\('web-contents-created',[\s\S]*guardWebContents\(contents/);
  });

  it('15. shell.openExternal only for http(s), and only through the consent prompt', () => {
    expect(externalUrlToOpen('https://example.com/')).toBe('https://example.com/');
    for (const bad of ['file:///etc/passwd', 'smb://x/y', 'javascript:alert(1)', 'ms-settings:', 'vscode://x']) expect(externalUrlToOpen(bad), bad).toBeNull();
    const electronFiles = readdirSync(join(root, 'src/main/electron')).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'));
    const callers = electronFiles.filter((f) => source(`src/main/electron/${f}`).includes('shell.openExternal('));
    expect(callers).toEqual(['harden.ts']);
    expect(source('src/main/electron/harden.ts')).toMatch(/createExternalLinkOpener\(\{[\s\S]*open: \(url\) => shell\.openExternal\(url\)/);
  });

  it('16. the app is on a current, exactly pinned Electron, and 12. does not use the remote module', () => {
    const pkg = JSON.parse(source('package.json')) as { dependencies: Record<string, string>; devDependencies: Record<string, string> };
    expect(pkg.devDependencies.electron).toMatch(/^\d+\.\d+\.\d+$/);
    expect(Number(pkg.devDependencies.electron!.split('.')[0])).toBeGreaterThanOrEqual(38);
    expect({ ...pkg.dependencies, ...pkg.devDependencies }).not.toHaveProperty('@electron/remote');
  });

  it('17. IPC senders are validated: only the main window top frame on the app page', () => {
    const main = { url: APP_INDEX_URL };
    const packaged = rendererSource('/app/out/main', {}, true);
    expect(isTrustedSender(main, main, packaged)).toBe(true);
    expect(isTrustedSender({ url: APP_INDEX_URL }, main, packaged)).toBe(false);
    const away = { url: 'https://evil.example/' };
    expect(isTrustedSender(away, away, packaged)).toBe(false);
    expect(isAppUrl('file:///app/out/renderer/index.html', packaged)).toBe(false);
    const bridge = source('src/main/electron/ipc-bridge.ts');
    expect(bridge).toContain('isTrustedSender(event.senderFrame, window.webContents.mainFrame, source)');
    // One channel only; no ipcMain.on listeners that would skip the check.
    expect(bridge.match(/ipcMain\.(handle|on)\(/g)).toEqual(['ipcMain.handle(']);
  });

  it('18. no file:// for the app: the packaged renderer loads from app://, never loadFile', () => {
    const main = source('src/main/electron/main.ts');
    expect(main).not.toMatch(/loadFile\(|file:\/\//);
    expect(main).toContain('registerAppScheme()');
    expect(source('src/main/electron/harden.ts')).toContain('protocol.handle(APP_SCHEME, createAppProtocolHandler(source.dir))');
  });

  it('every BrowserWindow uses the tested options', () => {
    const main = source('src/main/electron/main.ts');
    const windows = main.match(/new BrowserWindow\([^)]*/g) ?? [];
    expect(windows.length).toBeGreaterThan(0);
    for (const w of windows) expect(w).toContain('new BrowserWindow(mainWindowOptions(');
  });

  it('the preload exposes only the typed API, never ipcRenderer', () => {
    const preload = source('src/preload/index.ts');
    expect(preload.match(/exposeInMainWorld\(/g)).toHaveLength(1);
    expect(preload).toContain("contextBridge.exposeInMainWorld('waypoint', createWaypointApi(ipcRenderer))");
    const api = source('src/preload/create-api.ts');
    expect(api).not.toMatch(/\bsend\(|sendSync\(|ipc\.on\(channel/);
  });
});
