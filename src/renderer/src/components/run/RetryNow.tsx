import { awaitsRetry } from '../../../../shared/retry-now';
import type { TranscriptItem } from '../../../../shared/transcript';
import { useWaypoint } from '../../store/store-context';
import { RunActionButton } from './RunActionButton';

/** The chat awaits "Retry now" (the same test main makes of its awaiting state). */
export function canRetryNow(items: readonly TranscriptItem[] | undefined, idle: boolean): boolean {
  return idle && awaitsRetry(items?.at(-1));
}

/** "Retry now" in the error notice it answers (the transcript's last item), once the run is idle. */
export function RetryNow({ sessionId }: { sessionId: string }) {
  const retryRun = useWaypoint((s) => s.retryRun);
  return <RunActionButton label="Retry now" onAct={() => retryRun(sessionId)} />;
}
