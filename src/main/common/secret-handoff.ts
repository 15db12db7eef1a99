import { spawn } from 'node:child_process';
import { closeSync, readFileSync } from 'node:fs';
import { Socket } from 'node:net';
import { isHandedOver } from './secret-names';

/**
 * Start-up without secrets in the environment (docs/security.md, "Secrets and what Waypoint
 * starts"). /proc/PID/environ and `ps eww` show the environment a process was exec'd with;
 * deleting from process.env changes nothing there. So a process that finds a secret-looking
 * variable in its environment starts itself again without them, and hands their values over a
 * pipe (fd 3) that the new process reads once and closes: it keeps them in memory only.
 *
 * The pipe carries one `NAME=HEX` line per variable (the value's UTF-8 bytes in hex): a format a
 * POSIX sh launcher (bin/waypoint-launch) writes with `od` alone, and that no value can break.
 */

/** Set in the environment of a process whose secrets wait on fd 3. */
export const HANDOFF_VARIABLE = 'WAYPOINT_SECRET_HANDOFF';
/** fd 3 holds the secrets (the sh launcher, which exec'd: nobody waits). */
const FROM_EXEC = 'fd3';
/** fd 3 holds the secrets and fd 4 is the waiting launcher's lifeline. */
const FROM_LAUNCHER = 'fd3+lifeline4';
const SECRETS_FD = 3;
const LIFELINE_FD = 4;
/**
 * What a waiting launcher passes on to the process it started (Ctrl+C, kill, a closed terminal, a
 * resized one). Windows has no such signals to pass (a console's Ctrl+C reaches every process
 * attached to it, and child.kill there ends a process outright), so nothing is forwarded there.
 */
const FORWARDED: NodeJS.Signals[] = process.platform === 'win32' ? [] : ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGWINCH'];

export type Secrets = Readonly<Record<string, string>>;

export interface ChildEnd {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export type Handoff =
  /** This process holds no secret in its environment: go on, with these values in memory. */
  | { kind: 'ready'; secrets: Secrets }
  /** This process only waits for the one it started without them, and must do nothing else. */
  | { kind: 'relaunched'; ended: Promise<ChildEnd> };

export interface HandoffOptions {
  env?: NodeJS.ProcessEnv;
  /** The program and arguments that start this process again (Node: execPath, execArgv, argv). */
  command?: { file: string; args: string[] };
}

export function encodeSecrets(secrets: Secrets): string {
  return Object.entries(secrets)
    .map(([name, value]) => `${name}=${Buffer.from(value, 'utf8').toString('hex')}\n`)
    .join('');
}

export function decodeSecrets(text: string): Record<string, string> {
  const secrets: Record<string, string> = {};
  for (const [index, line] of text.split('\n').entries()) {
    if (line === '') continue;
    const match = /^([A-Za-z_][A-Za-z0-9_]*)=((?:[0-9a-f]{2})*)$/.exec(line);
    // Where, never what: the line holds a secret (or part of one), and this message is printed.
    if (!match) throw new Error(`the secrets handed over on fd ${SECRETS_FD} are not NAME=HEX lines (line ${index + 1}).`);
    secrets[match[1]!] = Buffer.from(match[2]!, 'hex').toString('utf8');
  }
  return secrets;
}

/** The environment without the variables handed over, and those variables. */
export function splitEnvironment(env: NodeJS.ProcessEnv): { kept: Record<string, string>; secrets: Record<string, string> } {
  const kept: Record<string, string> = {};
  const secrets: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined || name === HANDOFF_VARIABLE) continue;
    if (isHandedOver(name)) secrets[name] = value;
    else kept[name] = value;
  }
  return { kept, secrets };
}

/**
 * The first thing each entry point does (web shell, command line, desktop app). Throws, in
 * words, when a launcher's handover cannot be read.
 */
export function startWithoutSecrets(options: HandoffOptions = {}): Handoff {
  const env = options.env ?? process.env;
  const marker = env[HANDOFF_VARIABLE];
  if (marker === FROM_EXEC || marker === FROM_LAUNCHER) return { kind: 'ready', secrets: takeHandedSecrets(env, marker === FROM_LAUNCHER) };
  if (marker !== undefined) throw new Error(`${HANDOFF_VARIABLE}=${marker} is not a handover this version knows (${FROM_EXEC} or ${FROM_LAUNCHER}).`);
  const { kept, secrets } = splitEnvironment(env);
  if (Object.keys(secrets).length === 0) return { kind: 'ready', secrets: {} };
  const command = options.command ?? { file: process.execPath, args: [...process.execArgv, ...process.argv.slice(1)] };
  return { kind: 'relaunched', ended: relaunch(command, kept, secrets) };
}

/** Reads fd 3 once and closes it; with a launcher waiting, watches its lifeline. */
function takeHandedSecrets(env: NodeJS.ProcessEnv, lifeline: boolean): Record<string, string> {
  let text: string;
  try {
    text = readFileSync(SECRETS_FD, 'utf8');
    closeSync(SECRETS_FD);
  } catch (error) {
    throw new Error(`${HANDOFF_VARIABLE} is set but fd ${SECRETS_FD} could not be read (${(error as Error).message}). Start Waypoint without ${HANDOFF_VARIABLE}.`, { cause: error });
  }
  // Not a secret, but nothing this process starts should believe it has a handover waiting.
  delete env[HANDOFF_VARIABLE];
  if (lifeline) dieWithLauncher();
  return decodeSecrets(text);
}

/**
 * The launcher holds the write end of fd 4 and never writes: end of file means it is gone (a
 * SIGKILL it could not forward). This process then goes the same way, as a killed app does,
 * rather than live on unseen with nobody to stop it.
 */
function dieWithLauncher(): void {
  const lifeline = new Socket({ fd: LIFELINE_FD, readable: true, writable: false });
  const die = () => process.kill(process.pid, 'SIGKILL');
  lifeline.on('end', die);
  lifeline.on('error', die);
  lifeline.resume();
  lifeline.unref();
}

function relaunch(command: { file: string; args: string[] }, kept: Record<string, string>, secrets: Secrets): Promise<ChildEnd> {
  return new Promise<ChildEnd>((resolve, reject) => {
    const child = spawn(command.file, command.args, {
      env: { ...kept, [HANDOFF_VARIABLE]: FROM_LAUNCHER },
      // The same stdin, stdout and stderr: the launcher never reads or writes them, so
      // `--json` output stays the child's alone.
      stdio: ['inherit', 'inherit', 'inherit', 'pipe', 'pipe'],
      // Its own session: a Ctrl+C at the terminal reaches it once (forwarded below), not twice
      // (the terminal's and ours), which the command line would take for "leave now". (On
      // Windows `detached` would open a console window of its own instead.)
      detached: process.platform !== 'win32',
    });
    const forward = (signal: NodeJS.Signals) => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    };
    for (const signal of FORWARDED) process.on(signal, forward);
    child.once('error', (error) => {
      for (const signal of FORWARDED) process.off(signal, forward);
      reject(new Error(`could not start again without the secrets in the environment: ${error.message}`, { cause: error }));
    });
    const pipe = child.stdio[SECRETS_FD] as NodeJS.WritableStream | null;
    pipe?.on('error', () => {}); // a child that died at once: its exit says why
    pipe?.end(encodeSecrets(secrets));
    child.once('exit', (code, signal) => {
      for (const signal of FORWARDED) process.off(signal, forward);
      resolve({ code, signal });
    });
  });
}

/** Ends a Node launcher the way its child ended: the same exit code, or the same signal. */
export function endLikeChild(end: ChildEnd): void {
  if (end.signal) {
    process.kill(process.pid, end.signal);
    // Only reached for a signal whose default is not to end the process.
    setImmediate(() => process.exit(1));
    return;
  }
  process.exit(end.code ?? 1);
}
