import { homedir } from 'node:os';
import { join } from 'node:path';
import { OffLimits, type OffLimitsPlace } from '../tools/workspace';

/**
 * Where Waypoint keeps its data on each platform, and the places its tools must never touch
 * (tools/workspace/off-limits.ts). The desktop app, the web shell and `waypoint run` share one
 * folder by default (the desktop app's); the web shell used another before, which may still hold
 * chats and a key, so both stay off-limits (a workspace of ~ holds both).
 */

/** The folder the web shell used before it shared the desktop app's: the platform's data folder plus "waypoint". */
export function formerWebDataDir(env: NodeJS.ProcessEnv = process.env, platform = process.platform): string {
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
    { path: formerWebDataDir(env), what: "the web shell's former data folder" },
  ];
  if (env.WAYPOINT_DATA_DIR) places.push({ path: env.WAYPOINT_DATA_DIR, what: "Waypoint's data folder (WAYPOINT_DATA_DIR)" });
  // The MCP servers named there are started at every start: a change to it runs a program.
  if (mcpConfigPath) places.push({ path: mcpConfigPath, what: "Waypoint's MCP configuration file" });
  return places;
}

/**
 * The line a shell started on a workspace prints on stderr when Waypoint's own places lie inside
 * it (waypoint run, the web shell): file tools stay out of them (off-limits.ts), but a command can
 * reach them, and nothing else says so until a command's dry run. Null when none is inside.
 */
export function dataInWorkspaceNote(workspace: string | null, dataDir: string, env: NodeJS.ProcessEnv, mcpConfigPath?: string): string | null {
  if (!workspace) return null;
  const inside = new OffLimits(waypointPlaces(dataDir, env, mcpConfigPath)).inside(workspace);
  if (inside.length === 0) return null;
  const named = inside.map((place) => `${place.what} (${place.path})`);
  const list = named.length === 1 ? named[0] : `${named.slice(0, -1).join(', ')} and ${named.at(-1)}`;
  return `waypoint: note: ${list} ${inside.length === 1 ? 'is' : 'are'} inside the workspace; file tools can't touch ${inside.length === 1 ? 'it' : 'them'}, but commands Claude runs can.`;
}
