import { homedir } from 'node:os';
import { posix, win32 } from 'node:path';

/** The desktop app's name as Electron uses it for its folder: package.json's productName. */
export const PRODUCT_NAME = 'Waypoint';

/**
 * The desktop app's data folder, computed as Electron's app.getPath('userData') does (appData +
 * productName) without loading Electron: a headless run and the app then share chats and settings
 * by default. WAYPOINT_DATA_DIR overrides it, as it does for the app.
 */
export function desktopDataDir(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform, home = homedir()): string {
  if (env.WAYPOINT_DATA_DIR) return env.WAYPOINT_DATA_DIR;
  if (platform === 'win32') return win32.join(env.APPDATA || win32.join(home, 'AppData', 'Roaming'), PRODUCT_NAME);
  if (platform === 'darwin') return posix.join(home, 'Library', 'Application Support', PRODUCT_NAME);
  return posix.join(env.XDG_CONFIG_HOME || posix.join(home, '.config'), PRODUCT_NAME);
}
