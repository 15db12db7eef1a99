import { homedir } from 'node:os';
import { join } from 'node:path';
import type { OffLimitsPlace } from '../tools/workspace';

/**
 * Where Waypoint keeps its data on each platform, and the places its tools must never touch
 * (tools/workspace/off-limits.ts). The desktop app and the command line keep theirs in different
 * folders by default, and either may be asked to work in a workspace that holds the other's (a
 * workspace of ~ holds both): each protects both.
 */

/** The per-user data folder of the web shell and `waypoint run`: the platform's data folder plus "waypoint". */
export function defaultDataDir(env: NodeJS.ProcessEnv = process.env, platform = process.platform): string {
  if (platform === 'win32') return join(env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), 'waypoint');
  if (platform === 'darwin') return join(homedir(), 'Library', 'Application Support', 'waypoint');
  return join(env.XDG_DATA_HOME || join(homedir(), '.local', 'share'), 'waypoint');
}

/** The desktop app's own folder (Electron's userData: the platform's app-data folder plus the product name). */
export function desktopDataDir(env: NodeJS.ProcessEnv = process.env, platform = process.platform): string {
  if (platform === 'win32') return join(env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), 'Waypoint');
  if (platform === 'darwin') return join(homedir(), 'Library', 'Application Support', 'Waypoint');
  return join(env.XDG_CONFIG_HOME || join(homedir(), '.config'), 'Waypoint');
}

/** Every place of Waypoint's that the workspace tools leave alone, the one in use first. */
export function waypointPlaces(dataDir: string, env: NodeJS.ProcessEnv, mcpConfigPath?: string): OffLimitsPlace[] {
  const places: OffLimitsPlace[] = [
    { path: dataDir, what: "Waypoint's data folder" },
    { path: desktopDataDir(env), what: "the Waypoint app's data folder" },
    { path: defaultDataDir(env), what: "the data folder of waypoint run and the web shell" },
  ];
  if (env.WAYPOINT_DATA_DIR) places.push({ path: env.WAYPOINT_DATA_DIR, what: "Waypoint's data folder (WAYPOINT_DATA_DIR)" });
  // The MCP servers named there are started at every start: a change to it runs a program.
  if (mcpConfigPath) places.push({ path: mcpConfigPath, what: "Waypoint's MCP configuration file" });
  return places;
}
