import { useState } from 'react';
import type { TranscriptItem } from '../../../../shared/transcript';

/** Error notices the loop gives up on after its budget: "Retry now" can resend the kept message. */
const RETRYABLE = new Set(['overloaded', 'rate_limit', 'server', 'network', 'stalled']);

export function canRetryNow(items: readonly TranscriptItem[] | undefined, idle: boolean): boolean {
  const last = items?.at(-1);
  return idle && last?.kind === 'notice' && last.level === 'error' && !!last.code && RETRYABLE.has(last.code);
}

/** "Retry now" under the error notice, once the run is idle. */
export function RetryNow({ onRetry }: { onRetry(): Promise<unknown> }) {
  const [busy, setBusy] = useState(false);
  return (
    <div className="retry-now">
      <button
        type="button"
        className="btn btn--small btn--primary"
        disabled={busy}
        onClick={async () => {
          setBusy(true);
          await onRetry();
          setBusy(false);
        }}
      >
        Retry now
      </button>
    </div>
  );
}
