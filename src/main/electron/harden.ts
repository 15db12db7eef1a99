import { app, session, shell, type WebContents } from 'electron';
import { CONTENT_SECURITY_POLICY } from '../app/csp';
import { externalUrlToOpen } from './navigation-policy';

/** No page inside Waypoint navigates, opens windows, embeds webviews or gets permissions. */
function guardWebContents(contents: WebContents): void {
  contents.on('will-navigate', (event) => event.preventDefault());
  contents.on('will-redirect', (event) => event.preventDefault());
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(({ url }) => {
    const external = externalUrlToOpen(url);
    if (external) void shell.openExternal(external);
    return { action: 'deny' };
  });
}

/** Session-wide defences; call once, after `app` is ready and before any window exists. */
export function hardenSession(): void {
  const ses = session.defaultSession;
  ses.webRequest.onHeadersReceived((details, callback) => {
    callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [CONTENT_SECURITY_POLICY] } });
  });
  ses.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  ses.setPermissionCheckHandler(() => false);
  // Every webContents ever created (windows, devtools, anything future) gets the same guards.
  app.on('web-contents-created', (_event, contents) => guardWebContents(contents));
}
