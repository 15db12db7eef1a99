import { useWaypoint } from '../../store/store-context';

/** After a crash or kill mid-run: says so, and "Resume" continues from the last consistent point. */
export function ResumeBar() {
  const interrupted = useWaypoint((s) => !!s.sessions.find((x) => x.id === s.currentSessionId)?.interrupted);
  const idle = useWaypoint((s) => !s.currentSessionId || (s.runStates[s.currentSessionId]?.status ?? 'idle') === 'idle');
  const resume = useWaypoint((s) => s.resumeRun);
  if (!interrupted || !idle) return null;
  return (
    <div className="resume-bar" role="status">
      <span>Claude was interrupted when Waypoint closed.</span>
      <button type="button" className="btn btn--primary" onClick={() => void resume()}>
        Resume
      </button>
    </div>
  );
}
