import { useWaypoint } from '../../store/store-context';
import { RetryBanner } from './RetryBanner';
import { canRetryNow, RetryNow } from './RetryNow';

/** API-fault UI above the composer: the live backoff banner, or "Retry now" after the budget ran out. */
export function RunNotices({ sessionId }: { sessionId: string | null }) {
  const runState = useWaypoint((s) => (sessionId ? s.runStates[sessionId] : undefined));
  const retryable = useWaypoint((s) => (sessionId ? canRetryNow(s.transcripts[sessionId]?.items, (s.runStates[sessionId]?.status ?? 'idle') === 'idle') : false));
  const stop = useWaypoint((s) => s.stop);
  const retryRun = useWaypoint((s) => s.retryRun);
  if (!sessionId) return null;
  if (runState?.status === 'retrying') return <RetryBanner state={runState} onAbort={() => void stop()} />;
  if (retryable) return <RetryNow onRetry={() => retryRun(sessionId)} />;
  return null;
}
