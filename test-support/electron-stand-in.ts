/**
 * A stand-in for the `electron` module, for driving Waypoint's real main process (and preload)
 * in plain Node (vi.mock('electron', …)): no Electron binary runs here. It records what main
 * installs — the session's permission and header handlers, the app:// protocol handler, the
 * window options, web-contents listeners, the IPC handler — so a test can fire what Chromium
 * would fire (a navigation, a window.open, a permission request, a response) and see the answer.
 * It implements only what Waypoint calls; a new call fails loudly as "not a function".
 */
import { EventEmitter } from 'node:events';

type Handler = (...args: never[]) => unknown;

export interface Recorded {
  schemes: unknown[];
  protocolHandlers: Map<string, (request: Request) => Promise<Response>>;
  headersListener: ((details: { url: string; responseHeaders?: Record<string, string[]> }, callback: (response: { responseHeaders?: Record<string, string[]>; cancel?: boolean }) => void) => void) | null;
  permissionRequest: ((contents: unknown, permission: string, callback: (granted: boolean) => void, details?: unknown) => void) | null;
  permissionCheck: ((contents: unknown, permission: string, origin?: string, details?: unknown) => boolean) | null;
  windows: StandInWindow[];
  ipcHandlers: Map<string, Handler>;
  opened: string[];
  dialogs: unknown[];
  /** What the next consent dialog answers (0 = Open, 1 = Cancel). */
  dialogResponse: number;
  exposed: Map<string, unknown>;
  paths: Map<string, string>;
  quits: number;
  notificationsSupported: boolean;
  notifications: Notification[];
  /** app.setBadgeCount's calls, in order. */
  badgeCounts: number[];
}

export const recorded: Recorded = {
  schemes: [],
  protocolHandlers: new Map(),
  headersListener: null,
  permissionRequest: null,
  permissionCheck: null,
  windows: [],
  ipcHandlers: new Map(),
  opened: [],
  dialogs: [],
  dialogResponse: 1,
  exposed: new Map(),
  paths: new Map(),
  quits: 0,
  notificationsSupported: false,
  notifications: [],
  badgeCounts: [],
};

class StandInApp extends EventEmitter {
  isPackaged = true;
  private readyResolve!: () => void;
  private readonly ready = new Promise<void>((resolve) => (this.readyResolve = resolve));
  whenReady(): Promise<void> {
    return this.ready;
  }
  /** The test decides when Electron is "ready". */
  makeReady(): void {
    this.readyResolve();
    this.emit('ready');
  }
  requestSingleInstanceLock(): boolean {
    return true;
  }
  getPath(name: string): string {
    const path = recorded.paths.get(name);
    if (!path) throw new Error(`stand-in app.getPath('${name}') has no path; set recorded.paths first`);
    return path;
  }
  setPath(name: string, path: string): void {
    recorded.paths.set(name, path);
  }
  quit(): void {
    recorded.quits++;
  }
  setBadgeCount(count: number): boolean {
    recorded.badgeCounts.push(count);
    return true;
  }
  exit(): void {
    recorded.quits++;
  }
}

export const app = new StandInApp();

/** A frame: only its URL matters to the sender check. */
export class StandInFrame {
  constructor(public url: string) {}
}

export class StandInWebContents extends EventEmitter {
  windowOpenHandler: ((details: { url: string }) => { action: string }) | null = null;
  readonly mainFrame = new StandInFrame('');
  readonly sent: Array<[string, unknown]> = [];
  setWindowOpenHandler(handler: (details: { url: string }) => { action: string }): void {
    this.windowOpenHandler = handler;
  }
  send(channel: string, payload: unknown): void {
    this.sent.push([channel, payload]);
  }
  /** Fires a Chromium event the way Electron does; true when a listener called preventDefault(). */
  fire(event: string, ...args: unknown[]): boolean {
    let prevented = false;
    this.emit(event, { preventDefault: () => (prevented = true) }, ...args);
    return prevented;
  }
}

export class StandInWindow extends EventEmitter {
  readonly webContents = new StandInWebContents();
  readonly loadedUrls: string[] = [];
  readonly loadedFiles: string[] = [];
  destroyed = false;
  constructor(readonly options: { webPreferences?: Record<string, unknown> } & Record<string, unknown>) {
    super();
    recorded.windows.push(this);
    // As in Electron: every new webContents is announced on the app.
    app.emit('web-contents-created', {}, this.webContents);
  }
  async loadURL(url: string): Promise<void> {
    this.loadedUrls.push(url);
    this.webContents.mainFrame.url = url;
  }
  async loadFile(file: string): Promise<void> {
    this.loadedFiles.push(file);
  }
  /** What the window was asked to do (show, focus, restore), in order. */
  readonly calls: string[] = [];
  focused = true;
  minimized = false;
  show(): void {
    this.calls.push('show');
  }
  focus(): void {
    this.calls.push('focus');
  }
  restore(): void {
    this.calls.push('restore');
  }
  isMinimized(): boolean {
    return this.minimized;
  }
  isFocused(): boolean {
    return this.focused;
  }
  isDestroyed(): boolean {
    return this.destroyed;
  }
  static getFocusedWindow(): StandInWindow | null {
    return recorded.windows[0] ?? null;
  }
}

/** @alias electron's own name for the window class; tests name it StandInWindow. */
export const BrowserWindow = StandInWindow;

export const protocol = {
  registerSchemesAsPrivileged(schemes: unknown[]): void {
    recorded.schemes.push(...schemes);
  },
  handle(scheme: string, handler: (request: Request) => Promise<Response>): void {
    recorded.protocolHandlers.set(scheme, handler);
  },
};

export const session = {
  defaultSession: {
    webRequest: {
      onHeadersReceived(listener: NonNullable<Recorded['headersListener']>): void {
        recorded.headersListener = listener;
      },
    },
    setPermissionRequestHandler(handler: Recorded['permissionRequest']): void {
      recorded.permissionRequest = handler;
    },
    setPermissionCheckHandler(handler: Recorded['permissionCheck']): void {
      recorded.permissionCheck = handler;
    },
  },
};

export const shell = {
  async openExternal(url: string): Promise<void> {
    recorded.opened.push(url);
  },
};

export const dialog = {
  async showMessageBox(...args: unknown[]): Promise<{ response: number }> {
    recorded.dialogs.push(args.at(-1));
    return { response: recorded.dialogResponse };
  },
  async showOpenDialog(): Promise<{ canceled: boolean; filePaths: string[] }> {
    return { canceled: true, filePaths: [] };
  },
};

export const ipcMain = {
  handle(channel: string, handler: Handler): void {
    if (recorded.ipcHandlers.has(channel)) throw new Error(`Attempted to register a second handler for '${channel}'`);
    recorded.ipcHandlers.set(channel, handler);
  },
  removeHandler(channel: string): void {
    recorded.ipcHandlers.delete(channel);
  },
};

export const safeStorage = {
  isEncryptionAvailable: () => false,
  getSelectedStorageBackend: () => 'basic_text',
  encryptString: (plain: string) => Buffer.from(plain),
  decryptString: (data: Buffer) => data.toString(),
};

/** Records what main shows; off (isSupported false) unless a test turns it on with `recorded.notificationsSupported`. */
export class Notification extends EventEmitter {
  static isSupported(): boolean {
    return recorded.notificationsSupported;
  }
  closed = false;
  constructor(readonly options: Record<string, unknown>) {
    super();
  }
  show(): void {
    recorded.notifications.push(this);
  }
  close(): void {
    this.closed = true;
    this.emit('close', {});
  }
}

/** Preload side. */
export const contextBridge = {
  exposeInMainWorld(key: string, api: unknown): void {
    recorded.exposed.set(key, api);
  },
};

export const ipcRenderer = {
  invoke: async () => ({ ok: true, value: null }),
  on: () => undefined,
  removeListener: () => undefined,
  send: () => {
    throw new Error('the preload must never use ipcRenderer.send');
  },
};

export const electron = { app, BrowserWindow, protocol, session, shell, dialog, ipcMain, safeStorage, Notification, contextBridge, ipcRenderer };
/** @alias the module's default export, for `import electron from 'electron'`. */
export default electron;
