import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { app, BrowserWindow, dialog, safeStorage } from 'electron';
import { installProcessGuards } from '../app/process-guards';
import { createServices, type Services } from '../app/services';
import type { CallOutput } from '../../shared/contract';
import type { Disposable } from '../common/emitter';
import type { Secrets } from '../common/secret-handoff';
import { EncryptedFileSecretStore, type SecretCipher } from './encrypted-file-secret-store';
import { openSignInPage } from './sign-in-browser';
import { hardenSession, registerAppScheme } from './harden';
import { notifyDesktop } from './attention-notifier';
import { bridgeIpc } from './ipc-bridge';
import { rendererSource } from './renderer-source';
import { mainWindowOptions } from './window-options';
import { desktopSecrets } from './secret-relaunch';
import iconPath from '../../../resources/icon.png?asset';

const mainDir = dirname(fileURLToPath(import.meta.url));
let window: BrowserWindow | null = null;
let services: Services | null = null;
let bridge: Disposable | null = null;

// Before anything else: no secret stays in this process's environment (secret-relaunch.ts).
// null: this process only waits for the app it started again without them.
const secrets = desktopSecrets();
if (secrets) {
  // First: an error nothing caught is logged and shown in the window, never a silent death of main.
  installProcessGuards({ report: (message) => services?.reportProblem?.(message), secrets: () => services?.secrets?.() ?? [] });

  // Before ready: the built renderer is served on app://waypoint (see app-protocol.ts).
  registerAppScheme();
  // An isolated profile for tests and side-by-side installs, like the web shell's --data-dir.
  if (process.env.WAYPOINT_DATA_DIR) app.setPath('userData', process.env.WAYPOINT_DATA_DIR);
}

function workspaceFromEnv(): string | null {
  const dir = process.env.WAYPOINT_WORKSPACE;
  if (!dir) return null;
  if (existsSync(dir)) return dir;
  console.warn(`[waypoint] WAYPOINT_WORKSPACE "${dir}" does not exist; starting without a workspace.`);
  return null;
}

async function start(secrets: Secrets): Promise<void> {
  const source = rendererSource(mainDir, process.env, app.isPackaged);
  hardenSession(source);
  const userData = app.getPath('userData');
  const keychain: SecretCipher = {
    // 'basic_text' on Linux means "no keychain": treat it as unavailable rather than pretend.
    isAvailable: () =>
      safeStorage.isEncryptionAvailable() &&
      (process.platform !== 'linux' || safeStorage.getSelectedStorageBackend() !== 'basic_text'),
    encrypt: (plain) => safeStorage.encryptString(plain),
    decrypt: (data) => safeStorage.decryptString(data),
  };
  services = await createServices({
    dataDir: userData,
    workspace: workspaceFromEnv(),
    shell: 'electron',
    // The handed-over key (and the rest) live in this object only, never in process.env.
    env: { ...process.env, ...secrets },
    // chooseWorkspace: the native folder dialog, over the window when there is one.
    pickFolder: async () => {
      const options = { title: 'Choose a workspace folder', properties: ['openDirectory', 'createDirectory'] as Array<'openDirectory' | 'createDirectory'> };
      const picked = window ? await dialog.showOpenDialog(window, options) : await dialog.showOpenDialog(options);
      return picked.canceled ? null : (picked.filePaths[0] ?? null);
    },
    ...(process.env.WAYPOINT_MCP_CONFIG ? { mcpConfigPath: process.env.WAYPOINT_MCP_CONFIG } : {}),
    secretStore: new EncryptedFileSecretStore(join(userData, 'api-key.bin'), keychain),
    // Remote MCP servers' sign-ins, encrypted the same way, in a file of their own.
    mcpTokenStore: new EncryptedFileSecretStore(join(userData, 'mcp-sign-ins.bin'), keychain, undefined, { noun: 'remote MCP sign-ins', again: 'sign in to those servers again' }),
    openSignInPage,
  });

  // The badge starts at the chats restored waiting for a person, which fire no event: the listing
  // stamps them (app/listed-runs.ts). No await between its answer and notifyDesktop below.
  const listed = await services.router('listSessions', {});
  const waiting = listed.ok ? (listed.value as CallOutput<'listSessions'>).sessions.filter((chat) => chat.run === 'needs-you').map((chat) => chat.id) : [];
  const win = new BrowserWindow(mainWindowOptions(join(mainDir, '..', 'preload', 'index.cjs'), iconPath));
  window = win;
  bridge = bridgeIpc(win, services, source);
  const chats = services.chats;
  notifyDesktop(services, () => window, (id) => chats.listSessions().find((chat) => chat.id === id)?.title, waiting); // lives as long as the services
  win.once('ready-to-show', () => win.show());
  win.on('closed', () => {
    bridge?.dispose();
    bridge = null;
    window = null;
  });
  await win.loadURL(source.url);
}

if (!secrets) {
  // The launcher: nothing to do but wait (secret-relaunch.ts ends it).
} else if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  app.on('second-instance', () => {
    if (!window) return;
    if (window.isMinimized()) window.restore();
    window.focus();
  });
  app.on('window-all-closed', () => app.quit());

  // Dispose services (flush logs, stop runs) before the process goes away.
  let quitting = false;
  app.on('before-quit', (event) => {
    if (quitting || !services) return;
    event.preventDefault();
    quitting = true;
    bridge?.dispose();
    void services.dispose().finally(() => app.quit());
  });

  app.whenReady().then(() => start(secrets)).catch((error: unknown) => {
    console.error('[waypoint] failed to start:', error);
    app.exit(1);
  });
}
