import { constants } from 'node:os';
import { app } from 'electron';
import { startWithoutSecrets, type ChildEnd, type Secrets } from '../common/secret-handoff';

/**
 * The desktop app's start without secrets in its environment (common/secret-handoff.ts): with a
 * secret-looking variable there, this Electron process starts the app binary again with the same
 * arguments, without them, and only waits: it registers nothing, takes no single-instance lock
 * and opens no window, and leaves with the other's exit code. Returns the secrets to keep in
 * memory, or null when this process is only the launcher.
 */
export function desktopSecrets(): Secrets | null {
  let handoff;
  try {
    handoff = startWithoutSecrets({ command: { file: process.execPath, args: [...process.execArgv, ...process.argv.slice(1)] } });
  } catch (error) {
    console.error(`[waypoint] ${(error as Error).message}`);
    app.exit(1);
    return null;
  }
  if (handoff.kind === 'ready') return handoff.secrets;
  handoff.ended.then(
    // A signal is told as the shell's 128 + its number (Electron's app.exit takes a code only).
    (end) => app.exit(launcherExitCode(end)),
    (error: unknown) => {
      console.error(`[waypoint] ${(error as Error).message}`);
      app.exit(1);
    },
  );
  return null;
}

/** The exit code this launcher leaves with: the app's own, or the shell's 128 + N for a signal N. */
export function launcherExitCode(end: ChildEnd): number {
  if (end.code !== null) return end.code;
  // Node's own table: every signal by its number on this platform (SIGQUIT is 131, not 129).
  return 128 + (end.signal ? (constants.signals[end.signal] ?? 1) : 0);
}
