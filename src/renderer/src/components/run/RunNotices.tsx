import { useWaypoint } from '../../store/store-context';
import { RetryBanner } from './RetryBanner';
import { canContinue, ContinueRun } from './ContinueRun';

/**
 * Run-end UI above the composer: the live backoff banner, or "Continue" after "Max model turns"
 * cut a tool loop short. ("Retry now" sits in the error notice it answers, in the transcript.)
 */
export function RunNotices({ sessionId }: { sessionId: string | null }) {
  const runState = useWaypoint((s) => (sessionId ? s.runStates[sessionId] : undefined));
  const continuable = useWaypoint((s) => (sessionId ? canContinue(s.transcripts[sessionId]?.items, (s.runStates[sessionId]?.status ?? 'idle') === 'idle') : false));
  const stop = useWaypoint((s) => s.stop);
  if (!sessionId) return null;
  if (runState?.status === 'retrying') return <RetryBanner state={runState} onAbort={() => void stop()} />;
  if (continuable) return <ContinueRun sessionId={sessionId} />;
  return null;
}
