/**
 * The main window's options, kept free of 'electron' so they can be unit-tested: the renderer
 * is an untrusted web page that only sees window.waypoint from the preload.
 */
export function mainWindowOptions(preloadPath: string, iconPath?: string) {
  return {
    // The taskbar/dock icon in development and on Linux (installers also set it; see electron-builder.yml).
    ...(iconPath ? { icon: iconPath } : {}),
    width: 1100,
    height: 800,
    minWidth: 520,
    minHeight: 420,
    title: 'Waypoint',
    show: false,
    backgroundColor: '#1e1e1e',
    webPreferences: {
      preload: preloadPath,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      // Middle-click must not open links in new windows behind the window-open handler's back.
      disableBlinkFeatures: 'Auxclick',
      webviewTag: false,
      navigateOnDragDrop: false,
      spellcheck: false,
    },
  } as const;
}
