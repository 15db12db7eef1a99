import { app, BrowserWindow, dialog, protocol, session, shell } from 'electron';
import { CONTENT_SECURITY_POLICY } from '../renderer-host/csp';
import { APP_SCHEME, APP_SCHEME_PRIVILEGES, createAppProtocolHandler } from './app-protocol';
import { consentDialogOptions, createExternalLinkOpener } from './external-link';
import type { RendererSource } from './navigation-policy';
import { denyAllPermissions, guardWebContents } from './web-contents-guard';

/** Must run before `app` is ready: app:// becomes a secure, standard origin for the renderer. */
export function registerAppScheme(): void {
  protocol.registerSchemesAsPrivileged([APP_SCHEME_PRIVILEGES]);
}

// http(s) links only, and only after the user says yes to that URL (external-link.ts).
const openLink = createExternalLinkOpener({
  async confirm(url) {
    const parent = BrowserWindow.getFocusedWindow();
    const options = consentDialogOptions(url);
    const answer = parent ? await dialog.showMessageBox(parent, options) : await dialog.showMessageBox(options);
    return answer.response === 0;
  },
  open: (url) => shell.openExternal(url),
});

/** Session-wide defences; call once, after `app` is ready and before any window exists. */
export function hardenSession(source: RendererSource): void {
  const ses = session.defaultSession;
  if (source.kind === 'app') protocol.handle(APP_SCHEME, createAppProtocolHandler(source.dir));
  ses.webRequest.onHeadersReceived((details, callback) => {
    callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [CONTENT_SECURITY_POLICY] } });
  });
  ses.setPermissionRequestHandler(denyAllPermissions.request);
  ses.setPermissionCheckHandler(denyAllPermissions.check);
  // Every webContents ever created (windows, devtools, anything future) gets the same guards.
  app.on('web-contents-created', (_event, contents) =>
    guardWebContents(contents, (url) => {
      void openLink(url).catch((error: unknown) => console.warn('[waypoint] could not open link:', error));
    }),
  );
}
