import { useState } from 'react';
import { awaitsRetry } from '../../../../shared/retry-now';
import type { TranscriptItem } from '../../../../shared/transcript';

/** The chat awaits "Retry now" (the same test main makes of its awaiting state). */
export function canRetryNow(items: readonly TranscriptItem[] | undefined, idle: boolean): boolean {
  return idle && awaitsRetry(items?.at(-1));
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
