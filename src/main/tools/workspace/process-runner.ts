import { spawn } from 'node:child_process';
import { stripVTControlCharacters } from 'node:util';
import { commandEnv } from '../child-env';
import { isolate, processIsolation } from '../pid-isolation';
import { OutputTail } from './output-tail';

/**
 * Runs a shell command as the leader of its own process group, so a timeout or Stop can kill
 * everything it started (a test runner's workers, a `sleep` in a pipeline), not just the shell.
 */

export type RunEnd =
  | { status: 'exited'; code: number | null; signal: NodeJS.Signals | null }
  | { status: 'timed_out' }
  | { status: 'stopped' }
  | { status: 'spawn_failed'; message: string };

export interface RunResult {
  end: RunEnd;
  stdout: string;
  stderr: string;
  durationMs: number;
}

export interface RunOptions {
  command: string;
  cwd: string;
  timeoutMs: number;
  signal: AbortSignal;
  outputCap: number;
  /** Between SIGTERM and SIGKILL. */
  killGraceMs?: number;
}

function killGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // ESRCH: the group is already gone.
  }
}

export async function runInProcessGroup(options: RunOptions): Promise<RunResult> {
  const started = Date.now();
  // In a PID namespace of its own where bubblewrap can make one: no other process to read (pid-isolation.ts).
  const launch = isolate(await processIsolation(), { command: '/bin/sh', args: ['-c', options.command] });
  const stdout = new OutputTail(options.outputCap);
  const stderr = new OutputTail(options.outputCap);
  const grace = options.killGraceMs ?? 1000;

  return new Promise<RunResult>((resolve) => {
    let ending: RunEnd | null = null; // set when we decided to kill (timeout / stop)
    let settled = false;
    const timers: NodeJS.Timeout[] = [];
    const finish = (end: RunEnd): void => {
      if (settled) return;
      settled = true;
      timers.forEach(clearTimeout);
      options.signal.removeEventListener('abort', onAbort);
      // Colour and cursor codes some tools print even with NO_COLOR are noise in the transcript and to Claude.
      resolve({ end, stdout: stripVTControlCharacters(stdout.text()), stderr: stripVTControlCharacters(stderr.text()), durationMs: Date.now() - started });
    };

    if (options.signal.aborted) return finish({ status: 'stopped' });

    const child = spawn(launch.command, launch.args, {
      cwd: options.cwd,
      detached: true, // own process group: kill(-pid) reaches every descendant
      stdio: ['ignore', 'pipe', 'pipe'],
      // An allow-listed environment: never the API key or another credential (child-env.ts).
      env: commandEnv(process.env),
    });
    child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));

    const terminate = (why: RunEnd): void => {
      if (ending || settled || child.pid === undefined) return;
      ending = why;
      const pid = child.pid;
      killGroup(pid, 'SIGTERM');
      timers.push(
        setTimeout(() => {
          killGroup(pid, 'SIGKILL');
          // A descendant that left the group may still hold our pipes: stop waiting for them.
          timers.push(setTimeout(() => {
            child.stdout.destroy();
            child.stderr.destroy();
            finish(why);
          }, 500));
        }, grace),
      );
    };
    function onAbort(): void {
      terminate({ status: 'stopped' });
    }
    options.signal.addEventListener('abort', onAbort, { once: true });
    timers.push(setTimeout(() => terminate({ status: 'timed_out' }), options.timeoutMs));

    child.on('error', (error) => finish({ status: 'spawn_failed', message: error.message }));
    child.on('close', (code, signal) => {
      if (ending) {
        // Sweep stragglers that ignored SIGTERM but closed their pipes.
        if (child.pid !== undefined) killGroup(child.pid, 'SIGKILL');
        finish(ending);
      } else {
        finish({ status: 'exited', code, signal });
      }
    });
  });
}
