import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { CONTENT_SECURITY_POLICY } from '../renderer-host/csp';
import { externalUrlToOpen, isAppUrl, type RendererSource } from './navigation-policy';
import { rendererSource } from './renderer-source';
import { isTrustedSender } from './sender-check';
import { mainWindowOptions } from './window-options';

const appSource: RendererSource = { kind: 'app', dir: '/app/out/renderer', url: 'app://waypoint/index.html' };
const devSource: RendererSource = { kind: 'dev', url: 'http://localhost:5173/' };

describe('main window options', () => {
  it('isolates and sandboxes the renderer', () => {
    const prefs = mainWindowOptions('/app/out/preload/index.cjs').webPreferences;
    expect(prefs).toMatchObject({
      preload: '/app/out/preload/index.cjs',
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      spellcheck: false,
      webviewTag: false,
    });
  });
});

describe('content security policy', () => {
  it('allows only the app itself', () => {
    expect(CONTENT_SECURITY_POLICY).toContain("script-src 'self'");
    expect(CONTENT_SECURITY_POLICY).toContain("object-src 'none'");
    expect(CONTENT_SECURITY_POLICY).not.toMatch(/unsafe-(inline|eval)/);
  });
});

describe('navigation policy', () => {
  it('recognises the app page, ignoring query and hash', () => {
    expect(isAppUrl('app://waypoint/index.html', appSource)).toBe(true);
    expect(isAppUrl('app://waypoint/index.html#/chat?x=1', appSource)).toBe(true);
    expect(isAppUrl('file:///app/out/renderer/index.html', appSource)).toBe(false);
    expect(isAppUrl('file:///etc/passwd', appSource)).toBe(false);
    expect(isAppUrl('app://other/index.html', appSource)).toBe(false);
    expect(isAppUrl('app://user@waypoint/index.html', appSource)).toBe(false);
    expect(isAppUrl('https://example.com/', appSource)).toBe(false);
    expect(isAppUrl('not a url', appSource)).toBe(false);
    expect(isAppUrl('http://localhost:5173/index.html', devSource)).toBe(true);
    expect(isAppUrl('http://localhost:5174/', devSource)).toBe(false);
    expect(isAppUrl('http://evil.example/', devSource)).toBe(false);
  });

  it('opens only http(s) links externally', () => {
    expect(externalUrlToOpen('https://docs.anthropic.com/x')).toBe('https://docs.anthropic.com/x');
    expect(externalUrlToOpen('http://example.com')).toBe('http://example.com/');
    for (const bad of ['file:///etc/passwd', 'javascript:alert(1)', 'smb://host/share', 'ms-settings:', 'data:text/html,hi', 'nonsense', 'https://user:pw@example.com/']) {
      expect(externalUrlToOpen(bad), bad).toBeNull();
    }
  });

  it('finds the renderer: dev server only when unpackaged, else the built folder next to out/main on app://', () => {
    expect(rendererSource('/app/out/main', { ELECTRON_RENDERER_URL: 'http://localhost:5173' }, false)).toEqual({
      kind: 'dev',
      url: 'http://localhost:5173',
    });
    const built = rendererSource('/app/out/main', { ELECTRON_RENDERER_URL: 'http://localhost:5173' }, true);
    expect(built).toEqual({ kind: 'app', dir: join('/app/out/renderer'), url: 'app://waypoint/index.html' });
  });
});

describe('IPC sender check', () => {
  const mainFrame = { url: 'app://waypoint/index.html' };
  it('trusts only the main window top frame showing the app', () => {
    expect(isTrustedSender(mainFrame, mainFrame, appSource)).toBe(true);
    expect(isTrustedSender({ url: mainFrame.url }, mainFrame, appSource)).toBe(false); // another frame, same URL
    expect(isTrustedSender(null, mainFrame, appSource)).toBe(false);
    expect(isTrustedSender(mainFrame, null, appSource)).toBe(false);
    const navigatedAway = { url: 'https://evil.example/' };
    expect(isTrustedSender(navigatedAway, navigatedAway, appSource)).toBe(false);
  });
});
