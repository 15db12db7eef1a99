import { awaitsRetry } from '../../../../shared/retry-now';
import type { TranscriptItem } from '../../../../shared/transcript';
import { RunActionButton } from './RunActionButton';

/** The chat awaits "Retry now" (the same test main makes of its awaiting state). */
export function canRetryNow(items: readonly TranscriptItem[] | undefined, idle: boolean): boolean {
  return idle && awaitsRetry(items?.at(-1));
}

/** "Retry now" under the error notice, once the run is idle. */
export function RetryNow({ onRetry }: { onRetry(): Promise<unknown> }) {
  return <RunActionButton label="Retry now" onAct={onRetry} />;
}
