import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { app, recorded, StandInWebContents, type StandInWindow } from '../../../test-support/electron-stand-in';
import { CONTENT_SECURITY_POLICY } from '../renderer-host/csp';
import { IPC_CALL_CHANNEL } from '../../shared/contract';
import { APP_INDEX_URL } from './app-protocol';
import { isHandedOver } from '../common/secret-names';

/**
 * Electron's security checklist (https://www.electronjs.org/docs/latest/tutorial/security),
 * item by item, asserted on BEHAVIOUR: the built main process (out/main/index.js, as the app
 * ships it) starts against a stand-in for the `electron` module (test-support/electron-stand-in),
 * and the test fires what Chromium would — a permission request, a response, a navigation, a
 * window.open, a webview, an IPC call from a foreign frame, an app:// request — and checks the
 * answer main gives. Each test goes red when the guard it covers is commented out (see the
 * report of issue 11). The numbers are the checklist's. Needs `npx electron-vite build` first
 * (npm test builds before it runs the tests).
 */
vi.mock('electron', async () => (await import('../../../test-support/electron-stand-in')).electron);

const root = fileURLToPath(new URL('../../../', import.meta.url));
const BUILT_MAIN = resolve(root, 'out/main/index.js');
const BUILT_RENDERER = resolve(root, 'out/renderer');
let dataDir: string;
let window: StandInWindow;
let guardsBefore: number;
let prefs: Record<string, unknown>;

beforeAll(async () => {
  if (!existsSync(BUILT_MAIN)) throw new Error(`${BUILT_MAIN} is missing: build first with "npx electron-vite build" (npm test builds before it runs the tests).`);
  dataDir = mkdtempSync(join(tmpdir(), 'waypoint-electron-main-'));
  process.env.WAYPOINT_DATA_DIR = dataDir;
  delete process.env.ELECTRON_RENDERER_URL;
  delete process.env.WAYPOINT_WORKSPACE;
  delete process.env.WAYPOINT_MCP_CONFIG;
  // With a secret-looking variable (a CA bundle's PIP_CERT will do) main would start itself again
  // without it (secret-relaunch.ts): here that would be this test worker. secret-relaunch.test.ts covers that path.
  for (const name of Object.keys(process.env)) if (isHandedOver(name)) delete process.env[name];
  guardsBefore = process.listenerCount('uncaughtException');
  await import(/* @vite-ignore */ BUILT_MAIN);
  app.makeReady();
  const deadline = Date.now() + 15_000;
  while (!recorded.windows[0]?.loadedUrls.length) {
    if (Date.now() > deadline) throw new Error('main never created and loaded its window');
    await new Promise((r) => setTimeout(r, 10));
  }
  window = recorded.windows[0]!;
  prefs = (window.options.webPreferences ?? {}) as Record<string, unknown>;
}, 30_000);
afterAll(() => {
  app.emit('before-quit', { preventDefault: () => undefined });
  rmSync(dataDir, { recursive: true, force: true });
});

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

/** A webContents created after start-up (a devtools window, a future popup), announced as Electron does. */
function newContents(): StandInWebContents {
  const contents = new StandInWebContents();
  app.emit('web-contents-created', {}, contents);
  return contents;
}

const appRequest = (url: string, method = 'GET') => {
  const handler = recorded.protocolHandlers.get('app');
  if (!handler) throw new Error('main registered no app:// protocol handler');
  return handler(new Request(url, { method }));
};

const ipcCall = (senderFrame: unknown, name: string, input: unknown = {}) => {
  const handler = recorded.ipcHandlers.get(IPC_CALL_CHANNEL) as ((event: unknown, name: unknown, input: unknown) => Promise<unknown>) | undefined;
  if (!handler) throw new Error(`main registered no handler for ${IPC_CALL_CHANNEL}`);
  return handler({ senderFrame }, name, input);
};

describe('Electron security checklist, on the running main process', () => {
  it('1. only secure content: the window loads app://waypoint/index.html, never a remote page or a file', () => {
    expect(window.loadedUrls).toEqual([APP_INDEX_URL]);
    expect(window.loadedFiles).toEqual([]);
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
    expect(String(prefs.preload)).toMatch(/out\/preload\/index\.cjs$/);
  });

  it('5. every permission request and every permission check is denied', () => {
    expect(recorded.permissionRequest, 'no permission request handler was installed').toBeTypeOf('function');
    expect(recorded.permissionCheck, 'no permission check handler was installed').toBeTypeOf('function');
    for (const permission of ['media', 'geolocation', 'notifications', 'clipboard-read', 'clipboard-sanitized-write', 'openExternal', 'fullscreen', 'midi', 'hid', 'serial', 'usb']) {
      let granted: boolean | null = null;
      recorded.permissionRequest!(window.webContents, permission, (g) => (granted = g), { requestingUrl: APP_INDEX_URL });
      expect(granted, permission).toBe(false);
      expect(recorded.permissionCheck!(window.webContents, permission, 'app://waypoint', {}), permission).toBe(false);
    }
  });

  it('6. webSecurity stays on, 8. no insecure content, 9. no experimental features, 10. no enableBlinkFeatures', () => {
    expect(prefs.webSecurity).toBe(true);
    expect(prefs.allowRunningInsecureContent).toBe(false);
    expect(prefs.experimentalFeatures).toBe(false);
    expect(prefs).not.toHaveProperty('enableBlinkFeatures');
    // Middle-click (auxclick) cannot open a window around the window-open handler.
    expect(prefs.disableBlinkFeatures).toBe('Auxclick');
  });

  it('7. every response of the session carries the CSP, whatever the server sent, and app:// responses do too', async () => {
    expect(recorded.headersListener, 'no onHeadersReceived listener was installed').toBeTypeOf('function');
    const responses: Array<{ url: string; responseHeaders?: Record<string, string[]> }> = [
      { url: APP_INDEX_URL, responseHeaders: {} },
      { url: 'app://waypoint/assets/index.js', responseHeaders: { 'Content-Type': ['text/javascript'] } },
      { url: 'http://localhost:5173/', responseHeaders: { 'Content-Security-Policy': ["default-src *; script-src 'unsafe-eval'"] } },
      { url: 'https://evil.example/', responseHeaders: undefined },
    ];
    for (const details of responses) {
      let answer: { responseHeaders?: Record<string, string[]>; cancel?: boolean } | null = null;
      recorded.headersListener!(details, (response) => (answer = response));
      expect(answer, details.url).not.toBeNull();
      expect(answer!.responseHeaders?.['Content-Security-Policy'], details.url).toEqual([CONTENT_SECURITY_POLICY]);
    }
    const index = await appRequest(APP_INDEX_URL);
    expect(index.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
    expect((await appRequest('app://waypoint/nope.js')).headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
    // The CSP itself: no unsafe script sources; the page's meta tag says the same, less
    // frame-ancestors, which a browser honours only in a header (and complains of in a meta).
    const header = directives(CONTENT_SECURITY_POLICY);
    const inMeta = Object.fromEntries(Object.entries(header).filter(([name]) => name !== 'frame-ancestors'));
    expect(directives(metaCsp(await index.text()))).toEqual(inMeta);
    expect(directives(metaCsp(readFileSync(join(root, 'src/renderer/index.html'), 'utf8')))).toEqual(inMeta);
    expect((header['script-src'] ?? []).join(' ')).not.toMatch(/unsafe-eval|unsafe-inline|unsafe-hashes|wasm-unsafe-eval|\*|https?:|data:/);
    for (const [name, value] of [['object-src', "'none'"], ['base-uri', "'none'"], ['frame-ancestors', "'none'"], ['form-action', "'none'"]]) expect(header[name!], name).toEqual([value]);
  });

  it('11. no <webview> (so no allowpopups), and 12. webview options are verified: every attach is refused', () => {
    expect(prefs.webviewTag).toBe(false);
    // will-attach-webview is where Electron lets main check a webview's options: all are refused.
    for (const contents of [window.webContents, newContents()]) {
      const webPreferences = { preload: '/tmp/evil.js', nodeIntegration: true };
      expect(contents.fire('will-attach-webview', webPreferences, { src: 'https://evil.example/', allowpopups: 'true' })).toBe(true);
    }
  });

  it('13. navigation is refused in every webContents; web links go to a consent prompt, and only a yes opens them', async () => {
    for (const contents of [window.webContents, newContents()]) {
      expect(contents.fire('will-navigate', 'https://evil.example/phish')).toBe(true);
      expect(contents.fire('will-navigate', 'file:///etc/passwd')).toBe(true);
      expect(contents.fire('will-navigate', APP_INDEX_URL)).toBe(true);
      expect(contents.fire('will-redirect', 'https://evil.example/')).toBe(true);
    }
    expect(prefs.navigateOnDragDrop).toBe(false);
    // The user says no: nothing opens; yes: exactly that URL opens; a file: URL is never offered.
    await new Promise((r) => setTimeout(r, 50)); // the prompts offered above are answered (Cancel)
    recorded.dialogs.length = 0;
    recorded.dialogResponse = 1;
    window.webContents.fire('will-navigate', 'https://example.com/declined');
    await vi.waitFor(() => expect(recorded.dialogs).toHaveLength(1));
    await new Promise((r) => setTimeout(r, 50));
    recorded.dialogResponse = 0;
    window.webContents.fire('will-navigate', 'https://example.com/accepted');
    await vi.waitFor(() => expect(recorded.opened).toEqual(['https://example.com/accepted']));
    window.webContents.fire('will-navigate', 'file:///etc/passwd');
    await new Promise((r) => setTimeout(r, 50));
    expect(recorded.dialogs).toHaveLength(2);
    expect(recorded.opened).toEqual(['https://example.com/accepted']);
  });

  it('14. new windows are denied in every webContents, whatever the URL', () => {
    for (const contents of [window.webContents, newContents()]) {
      expect(contents.windowOpenHandler, 'no window-open handler was installed').toBeTypeOf('function');
      for (const url of ['https://example.com/', 'about:blank', 'javascript:alert(1)', APP_INDEX_URL, 'file:///etc/passwd']) {
        expect(contents.windowOpenHandler!({ url }), url).toEqual({ action: 'deny' });
      }
    }
  });

  it('15. shell.openExternal only for http(s), only after consent (see 13)', async () => {
    recorded.dialogResponse = 0;
    const before = recorded.opened.length;
    for (const url of ['file:///etc/passwd', 'smb://x/y', 'javascript:alert(1)', 'ms-settings:', 'vscode://x']) window.webContents.windowOpenHandler!({ url });
    await new Promise((r) => setTimeout(r, 50));
    expect(recorded.opened.slice(before)).toEqual([]);
  });

  it('16. the app is on a current, exactly pinned Electron', () => {
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { dependencies: Record<string, string>; devDependencies: Record<string, string> };
    expect(pkg.devDependencies.electron).toMatch(/^\d+\.\d+\.\d+$/);
    expect(Number(pkg.devDependencies.electron!.split('.')[0])).toBeGreaterThanOrEqual(38);
    expect({ ...pkg.dependencies, ...pkg.devDependencies }).not.toHaveProperty('@electron/remote');
  });

  it('17. IPC is answered only for the main window’s top frame on the app page', async () => {
    const refused = { ok: false, error: { code: 'invalid_input', message: expect.stringMatching(/did not come from the Waypoint window/) } };
    expect(await ipcCall({ url: APP_INDEX_URL }, 'getAppInfo')).toEqual(refused); // a look-alike frame (an iframe)
    expect(await ipcCall({ url: 'https://evil.example/' }, 'getAppInfo')).toEqual(refused);
    expect(await ipcCall(undefined, 'getAppInfo')).toEqual(refused);
    expect(await ipcCall(window.webContents.mainFrame, 'getAppInfo')).toMatchObject({ ok: true, value: { shell: 'electron' } });
    // The same top frame after it was navigated away (it cannot be, see 13) would be refused too.
    window.webContents.mainFrame.url = 'https://evil.example/';
    try {
      expect(await ipcCall(window.webContents.mainFrame, 'getAppInfo')).toEqual(refused);
    } finally {
      window.webContents.mainFrame.url = APP_INDEX_URL;
    }
    expect([...recorded.ipcHandlers.keys()]).toEqual([IPC_CALL_CHANNEL]);
  });

  it('18. no file:// for the app: app:// serves exactly the built renderer and nothing else', async () => {
    expect(recorded.schemes).toEqual([expect.objectContaining({ scheme: 'app', privileges: expect.objectContaining({ standard: true, secure: true }) })]);
    const index = await appRequest(APP_INDEX_URL);
    expect(index.status).toBe(200);
    expect(await index.text()).toBe(readFileSync(join(BUILT_RENDERER, 'index.html'), 'utf8'));
    for (const url of ['app://waypoint/../../package.json', 'app://waypoint/%2e%2e/%2e%2e/package.json', 'app://waypoint/..%2f..%2fpackage.json', 'app://waypoint/../main/index.js', 'app://evil/index.html', 'app://waypoint/nope.html']) {
      const res = await appRequest(url);
      expect(res.status, url).toBeGreaterThanOrEqual(400);
      expect(await res.text(), url).not.toMatch(/"name": "waypoint"|createServices/);
    }
    expect((await appRequest(APP_INDEX_URL, 'POST')).status).toBe(405);
  });

  it('20. the preload exposes exactly the typed API (call, onEvent), never ipcRenderer', async () => {
    await import('../../preload/index');
    expect([...recorded.exposed.keys()]).toEqual(['waypoint']);
    const api = recorded.exposed.get('waypoint') as Record<string, unknown>;
    expect(Object.keys(api).sort()).toEqual(['call', 'onEvent']);
    for (const value of Object.values(api)) expect(value).toBeTypeOf('function');
  });

  it('unexpected errors in main are caught, logged and shown, not a silent death', () => {
    expect(process.listenerCount('uncaughtException')).toBeGreaterThan(guardsBefore);
    expect(process.listenerCount('unhandledRejection')).toBeGreaterThan(0);
  });
});
