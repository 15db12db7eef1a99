import { execFile } from 'node:child_process';
import { accessSync, constants, existsSync, statSync } from 'node:fs';
import { delimiter, isAbsolute, join, resolve } from 'node:path';
import { scrubbedEnv } from './child-env';

/**
 * What Waypoint starts for Claude (run_command's shell, MCP stdio servers) runs, on Linux with
 * bubblewrap, in a PID namespace of its own with a fresh /proc: it sees no other process, so no
 * other process's environment (/proc/N/environ, `ps eww`), whichever of Waypoint's processes
 * still holds a secret there (a launcher waiting for the app, `npm`, the desktop's Electron
 * helpers). The file system, the network and the user stay as they are: this hides processes,
 * it is not a sandbox for files (docs/security.md, "Secrets and what Waypoint starts").
 */

export interface Launch {
  command: string;
  args: string[];
}

/** `--dev-bind / /`: the same files and devices; `--unshare-pid --proc /proc`: only its own processes. */
const BWRAP_ARGS = ['--dev-bind', '/', '/', '--unshare-pid', '--proc', '/proc', '--die-with-parent', '--'];
/** Where distributions put bwrap; not looked up on PATH, which a workspace's tools could shadow. */
const BWRAP_PATHS = ['/usr/bin/bwrap', '/bin/bwrap', '/usr/local/bin/bwrap'];
/** Turns the isolation off (a system where bubblewrap breaks commands); said once in the log. */
export const ISOLATION_VARIABLE = 'WAYPOINT_PROCESS_ISOLATION';

export type Isolation = { kind: 'bwrap'; bwrap: string } | { kind: 'none'; why: string };

export interface IsolationOptions {
  platform?: NodeJS.Platform;
  env?: NodeJS.ProcessEnv;
  /** Candidate bwrap binaries, first existing one wins. */
  bwrapPaths?: readonly string[];
  log?: (message: string) => void;
}

/**
 * Finds out once whether bubblewrap can make a PID namespace here: it may be missing, or present
 * but refused (unprivileged user namespaces turned off, a container's seccomp profile). Either
 * way commands still run, without the isolation, and the log says so once.
 */
export function detectIsolation(options: IsolationOptions = {}): Promise<Isolation> {
  const platform = options.platform ?? process.platform;
  const env = options.env ?? process.env;
  const log = options.log ?? ((message: string) => process.stderr.write(`[waypoint] ${message}\n`));
  const settle = (isolation: Isolation): Isolation => {
    if (isolation.kind === 'none' && platform === 'linux') log(`${isolation.why} Commands and MCP servers run without a PID namespace of their own: they can see Waypoint's other processes.`);
    return isolation;
  };
  if (platform !== 'linux') return Promise.resolve({ kind: 'none', why: 'PID namespaces are Linux only.' });
  if (env[ISOLATION_VARIABLE] === 'off') return Promise.resolve(settle({ kind: 'none', why: `${ISOLATION_VARIABLE}=off.` }));
  const bwrap = (options.bwrapPaths ?? BWRAP_PATHS).find((path) => existsSync(path));
  if (!bwrap) return Promise.resolve(settle({ kind: 'none', why: 'bubblewrap (bwrap) is not installed.' }));
  return new Promise<Isolation>((resolve) => {
    execFile(bwrap, [...BWRAP_ARGS, '/bin/sh', '-c', ':'], { env: scrubbedEnv(env), timeout: 10_000 }, (error, _stdout, stderr) => {
      if (!error) return resolve(settle({ kind: 'bwrap', bwrap }));
      const said = String(stderr).trim().split('\n')[0] || error.message;
      resolve(settle({ kind: 'none', why: `bubblewrap is installed but could not start a command here (${said}).` }));
    });
  });
}

let detected: Promise<Isolation> | null = null;

/** This process's isolation, found out on first use. */
export function processIsolation(): Promise<Isolation> {
  detected ??= detectIsolation();
  return detected;
}

/** `command args` as started under the isolation. */
export function isolate(isolation: Isolation, launch: Launch): Launch {
  if (isolation.kind === 'none') return launch;
  return { command: isolation.bwrap, args: [...BWRAP_ARGS, launch.command, ...launch.args] };
}

/**
 * Under bubblewrap a command that is not there no longer fails to spawn: bwrap starts, and its
 * execvp fails inside, in words the user was never meant to read. So the command is looked up
 * first, as spawn would (PATH of the environment it gets, relative to `cwd`), and a missing or
 * non-executable one fails the way spawn fails (`spawn NAME ENOENT` / `EACCES`), which the app
 * already turns into words ("the command … was not found").
 */
export function checkCommand(isolation: Isolation, command: string, env: Record<string, string | undefined>, cwd: string = process.cwd()): void {
  if (isolation.kind === 'none') return;
  const candidates = command.includes('/') ? [isAbsolute(command) ? command : resolve(cwd, command)] : (env.PATH ?? '').split(delimiter).filter(Boolean).map((dir) => join(resolve(cwd, dir), command));
  let denied = false;
  for (const candidate of candidates) {
    try {
      if (!statSync(candidate).isFile()) continue;
    } catch {
      continue;
    }
    try {
      accessSync(candidate, constants.X_OK);
      return;
    } catch {
      denied = true;
    }
  }
  const code = denied ? 'EACCES' : 'ENOENT';
  throw Object.assign(new Error(`spawn ${command} ${code}`), { code, errno: code, syscall: `spawn ${command}`, path: command });
}
