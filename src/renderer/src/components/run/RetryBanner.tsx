import { useEffect, useState } from 'react';
import type { RunState } from '../../../../shared/transcript';
import '../escalation/escalation.css';

type Retrying = Extract<RunState, { status: 'retrying' }>;

/** Whole seconds until `retryAt`, never negative. */
export function secondsUntil(retryAt: string, now: number): number {
  return Math.max(0, Math.ceil((Date.parse(retryAt) - now) / 1000));
}

/**
 * While the loop backs off from an API fault: "Claude is overloaded — retrying in 8 s (attempt
 * 2/5)", counting down live, with "Abort" (= Stop). The countdown is not announced every second:
 * the status is polite and only its text changes.
 */
export function RetryBanner({ state, onAbort }: { state: Retrying; onAbort(): void }) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), 250);
    return () => clearInterval(timer);
  }, [state.retryAt]);
  const seconds = secondsUntil(state.retryAt, now);
  return (
    <div className="retry-banner">
      <p role="status" aria-live="polite" className="retry-banner-text">
        {state.reason} — {seconds > 0 ? `retrying in ${seconds} s` : 'retrying now'} (attempt {state.attempt}/{state.maxAttempts})
      </p>
      <button type="button" className="btn btn--small" onClick={onAbort}>
        Abort
      </button>
    </div>
  );
}
