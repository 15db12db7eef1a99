import type { Disposable } from '../common/emitter';

/**
 * Last-resort handlers for both shells: an error nothing caught (a bug, a failed write in a timer,
 * a rejected promise nobody awaited) is logged with its stack and shown to the user, instead of
 * ending the process with no word. The app keeps running: every chat's state of record is in its
 * log, and the failing piece reports itself again if it keeps failing.
 */
export interface ProcessGuardOptions {
  /** Shows a sentence to the user (the shells forward it as an `error` event). */
  report(message: string): void;
  /** Where the stack goes (stderr by default). */
  log?(message: string): void;
  /** Keys to blank out of anything logged or shown. */
  secrets?(): Array<string | null | undefined>;
  target?: NodeJS.Process;
}

export function installProcessGuards(options: ProcessGuardOptions): Disposable {
  const target = options.target ?? process;
  const log = options.log ?? ((message: string) => process.stderr.write(`${message}\n`));
  const redact = (text: string): string => {
    let out = text;
    for (const secret of options.secrets?.() ?? []) if (secret && secret.length >= 8) out = out.split(secret).join('[redacted]');
    return out;
  };
  const handle = (kind: string) => (reason: unknown) => {
    const error = reason instanceof Error ? reason : new Error(String(reason));
    try {
      log(redact(`[waypoint] ${kind}: ${error.stack ?? error.message}`));
      options.report(redact(`Waypoint hit an unexpected error (${error.message.slice(0, 300)}). It keeps running; the details are in its log.`));
    } catch {
      // Reporting must never throw from here.
    }
  };
  const onException = handle('uncaught exception');
  const onRejection = handle('unhandled promise rejection');
  target.on('uncaughtException', onException);
  target.on('unhandledRejection', onRejection);
  return {
    dispose() {
      target.off('uncaughtException', onException);
      target.off('unhandledRejection', onRejection);
    },
  };
}
