#!/usr/bin/env node
import { parseCli } from './cli-args';
import { BadInput } from './run/bad-input';
import { terminalText } from './terminal-text';
import { endLikeChild, startWithoutSecrets, type Secrets } from '../common/secret-handoff';

/**
 * `node out/main/cli.js` (the package's `waypoint` bin): `run` for headless runs, `mcp` for the
 * planning MCP server. Bad input is one `waypoint: …` line on stderr and exit 1, before anything
 * starts; stdout belongs to the command (progress, JSON lines, or the MCP protocol).
 */
async function main(secrets: Secrets): Promise<number> {
  const parsed = parseCli(process.argv.slice(2));
  if (parsed.kind === 'help') {
    process.stdout.write(`${parsed.text}\n`);
    return 0;
  }
  if (parsed.kind === 'error') return refuse(parsed.message);
  // Whatever a service logs goes to stderr: stdout carries the command's output only.
  console.log = console.info = (...parts: unknown[]) => console.error(...parts);

  // Loaded only now: bad input is answered before the services are even read from disk.
  if (parsed.kind === 'mcp') {
    const { serveMcp } = await import('./mcp/mcp-command');
    return serveMcp(parsed.args, { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr, env: process.env });
  }
  // A reader that went away (`waypoint run --json | head -1`) breaks stdout: nobody sees the rest,
  // so the run stops as on Ctrl+C, leaving a resumable chat, instead of dying mid-write on EPIPE.
  let stopRun: ((why: string) => void) | null = null;
  process.stdout.on('error', () => {
    const stop = stopRun;
    stopRun = null;
    stop?.('stdout was closed');
  });
  try {
    const { runHeadless } = await import('./run/waypoint-run');
    return await runHeadless(parsed.args, {
      stdout: process.stdout,
      stderr: process.stderr,
      // The handed-over key lives in this object only, never in process.env (secret-handoff.ts).
      env: { ...process.env, ...secrets },
      onInterrupt(stop) {
        stopRun = stop;
        let count = 0;
        const handler = (signal: NodeJS.Signals) => {
          // A second Ctrl+C leaves at once; the log is written as it goes, so nothing is lost.
          if (++count > 1) process.exit(130);
          stop(signal === 'SIGINT' ? 'Ctrl+C' : signal);
        };
        process.on('SIGINT', handler);
        process.on('SIGTERM', handler);
        return () => {
          stopRun = null;
          process.off('SIGINT', handler);
          process.off('SIGTERM', handler);
        };
      },
    });
  } catch (error) {
    if (error instanceof BadInput) return refuse(error.message);
    throw error;
  }
}

/** One `waypoint: …` line on stderr. The message may quote outside text (an argument, a file name, a server's words), so a terminal gets none of its control sequences. */
function say(message: string): void {
  process.stderr.write(`waypoint: ${terminalText(message)}\n`);
}

function refuse(message: string): number {
  say(message);
  return 1;
}

/** Leaves once stdout has taken everything written (a pipe may still hold it). */
function exit(code: number): void {
  process.stdout.write('', () => process.exit(code));
}

function fail(error: unknown): void {
  say(error instanceof Error ? error.message : String(error));
  exit(1);
}

// First, no secret stays in this process's environment: with one there, this process only starts
// itself again without it, waits, and leaves with the same exit code (0–5) or signal.
try {
  const handoff = startWithoutSecrets();
  if (handoff.kind === 'relaunched') handoff.ended.then(endLikeChild, fail);
  else main(handoff.secrets).then(exit, fail);
} catch (error) {
  fail(error);
}
