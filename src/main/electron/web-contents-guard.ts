/**
 * The guards every webContents gets, free of 'electron' so they are tested in plain Node.
 * Waypoint's window never navigates, never opens windows, never embeds webviews and never
 * gets a permission (camera, notifications, clipboard-read, ...): it shows one local page.
 */

/** The bits of Electron's navigation events the guards use. */
export interface PreventableEvent {
  preventDefault(): void;
}

/** The bits of Electron's WebContents the guards use. */
export interface GuardableContents {
  on(event: 'will-navigate' | 'will-redirect' | 'will-attach-webview', listener: (event: PreventableEvent, url?: unknown) => void): unknown;
  setWindowOpenHandler(handler: (details: { url: string }) => { action: 'deny' }): void;
}

/**
 * Navigation and new windows are always refused in the app; a web link is instead offered to
 * the system browser (`offerExternal` asks the user first, see external-link.ts).
 */
export function guardWebContents(contents: GuardableContents, offerExternal: (url: string) => void): void {
  contents.on('will-navigate', (event, url) => {
    event.preventDefault();
    if (typeof url === 'string') offerExternal(url);
  });
  contents.on('will-redirect', (event) => event.preventDefault());
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(({ url }) => {
    offerExternal(url);
    return { action: 'deny' };
  });
}

/** Session permission handlers: every request and every check is denied. */
export const denyAllPermissions = {
  request: (_contents: unknown, _permission: string, callback: (granted: boolean) => void): void => callback(false),
  check: (): boolean => false,
};
