import { useWaypoint } from '../store/store-context';
import './context.css';
import { formatCount } from '../../../shared/numbers';

const short = (n: number) => (n >= 1_000_000 ? `${(n / 1_000_000).toFixed(n % 1_000_000 ? 1 : 0)}M` : n >= 1000 ? `${Math.round(n / 1000)}k` : String(n));

/**
 * How full the chosen model's context window is after the last reply, and "Compact now"
 * (docs/contract.md §5, Compaction). Waypoint compacts by itself before a request would not fit; the
 * button does it at once, and waits while Claude works.
 */
export function ContextBar({ sessionId, working }: { sessionId: string | null; working: boolean }) {
  const context = useWaypoint((s) => s.sessions.find((x) => x.id === sessionId)?.context);
  const compacting = useWaypoint((s) => {
    const state = sessionId ? s.runStates[sessionId] : undefined;
    return state?.status === 'running' && state.phase === 'compacting';
  });
  const compactNow = useWaypoint((s) => s.compactNow);
  if (!sessionId || !context) return null;
  const percent = Math.min(100, Math.round((100 * context.tokens) / context.window));
  const detail = `${formatCount(context.tokens)} of ${formatCount(context.window)} tokens`;
  return (
    <div className="context-bar">
      <div
        role="meter"
        aria-label="Context window"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        aria-valuetext={`${percent}% full: ${detail}`}
        className={`context-meter${percent >= 80 ? ' context-meter--high' : ''}`}
        title={detail}
      >
        <div className="context-meter-fill" style={{ transform: `scaleX(${percent / 100})` }} />
      </div>
      <span className="context-text" aria-live="polite">
        {compacting ? 'Compacting the chat…' : `Context ${percent}% of ${short(context.window)}`}
      </span>
      <button type="button" className="btn btn--small" disabled={working} onClick={() => void compactNow()}
        title="Claude summarises the older turns; later requests carry the summary and the latest turns">
        Compact now
      </button>
    </div>
  );
}
