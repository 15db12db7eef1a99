import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

/**
 * What tells one run of a process apart from another that later gets the same pid: when it
 * started, and which boot of the machine it ran in. A lock that records both can be recognised as
 * stale after a reboot or once its pid belongs to an unrelated process (chat-lock.ts).
 *
 * Linux reads /proc (cheap, no child process). macOS asks `ps` and `sysctl` (a child process, so
 * answers are kept a little while). Elsewhere (Windows) both are unknown: a lock whose pid is alive
 * then cannot be proven stale, and the user is offered "Take over" instead (docs/security.md).
 */

/** The process's start time as the system states it ("25" clock ticks since boot on Linux, a date on macOS); null when unknown or gone. */
export function processStartTime(pid: number): string | null {
  if (process.platform === 'linux') return linuxStartTime(pid);
  if (process.platform === 'darwin') return cachedPs(pid);
  return null;
}

let ownBoot: string | null | undefined;

/** This boot of the machine, or null when the system does not say. Read once: it cannot change while we run. */
export function bootId(): string | null {
  if (ownBoot !== undefined) return ownBoot;
  ownBoot = readBootId();
  return ownBoot;
}

function readBootId(): string | null {
  try {
    if (process.platform === 'linux') return readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim() || null;
    if (process.platform === 'darwin') {
      // "{ sec = 1700000000, usec = 12 } …": the boot's time is this boot's identity.
      const out = spawnSync('sysctl', ['-n', 'kern.boottime'], { encoding: 'utf8', timeout: 2_000 });
      const match = /sec = (\d+), usec = (\d+)/.exec(out.stdout ?? '');
      return match ? `boottime:${match[1]}.${match[2]}` : null;
    }
  } catch {
    // Not readable here (a sandbox without /proc): unknown.
  }
  return null;
}

/** The fields of /proc/PID/stat from field 3 (state) on, or null when the process is gone. */
function linuxStatFields(pid: number): string[] | null {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return null;
  }
  // "pid (comm) state ppid …": comm may hold spaces and parentheses, so count fields after the last ')'.
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}

function linuxStartTime(pid: number): string | null {
  // starttime is field 22 of the line; field 3 (state) is the first after the ')'.
  const start = linuxStatFields(pid)?.[22 - 3];
  return start && /^\d+$/.test(start) ? start : null;
}

/**
 * Whether the process has ended but was not yet reaped by its parent (a zombie, state Z or X on
 * Linux). Signal 0 still reaches such a pid, yet it runs no code and holds nothing: a writer killed
 * after its parent died stays a zombie for as long as pid 1 does not reap it (a container
 * without an init), and its lock must count as stale then.
 */
export function processEnded(pid: number): boolean {
  if (process.platform !== 'linux') return false;
  const state = linuxStatFields(pid)?.[0];
  return state === 'Z' || state === 'X';
}

const PS_CACHE_MS = 5_000;
const psCache = new Map<number, { at: number; start: string | null }>();

function cachedPs(pid: number): string | null {
  const hit = psCache.get(pid);
  if (hit && Date.now() - hit.at < PS_CACHE_MS) return hit.start;
  const out = spawnSync('ps', ['-o', 'lstart=', '-p', String(pid)], { encoding: 'utf8', timeout: 2_000 });
  const start = out.status === 0 ? out.stdout.trim() || null : null;
  psCache.set(pid, { at: Date.now(), start });
  return start;
}
