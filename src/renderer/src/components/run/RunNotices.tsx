import { useWaypoint } from '../../store/store-context';
import { RetryBanner } from './RetryBanner';
import { canRetryNow, RetryNow } from './RetryNow';
import { canContinue, ContinueRun } from './ContinueRun';

/**
 * Run-end UI above the composer: the live backoff banner, "Retry now" after the API budget ran
 * out, or "Continue" after "Max model turns" cut a tool loop short.
 */
export function RunNotices({ sessionId }: { sessionId: string | null }) {
  const runState = useWaypoint((s) => (sessionId ? s.runStates[sessionId] : undefined));
  const retryable = useWaypoint((s) => (sessionId ? canRetryNow(s.transcripts[sessionId]?.items, (s.runStates[sessionId]?.status ?? 'idle') === 'idle') : false));
  const continuable = useWaypoint((s) => (sessionId ? canContinue(s.transcripts[sessionId]?.items, (s.runStates[sessionId]?.status ?? 'idle') === 'idle') : false));
  const stop = useWaypoint((s) => s.stop);
  const retryRun = useWaypoint((s) => s.retryRun);
  if (!sessionId) return null;
  if (runState?.status === 'retrying') return <RetryBanner state={runState} onAbort={() => void stop()} />;
  if (retryable) return <RetryNow onRetry={() => retryRun(sessionId)} />;
  if (continuable) return <ContinueRun sessionId={sessionId} />;
  return null;
}
