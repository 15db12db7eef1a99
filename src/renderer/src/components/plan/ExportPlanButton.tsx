import { useState } from 'react';
import { useWaypoint } from '../../store/store-context';

/** "Export plan": the plan as Markdown (WBS.md format), saved wherever the user chooses. */
export function ExportPlanButton() {
  const sessionId = useWaypoint((s) => s.currentSessionId);
  const exportPlan = useWaypoint((s) => s.exportPlan);
  const [error, setError] = useState<string | null>(null);
  if (!sessionId) return null;
  const onClick = async () => {
    const result = await exportPlan(sessionId);
    setError(result.ok ? null : result.message);
  };
  return (
    <>
      <button type="button" className="btn btn--small" onClick={onClick}>
        Export plan
      </button>
      {error && (
        <span role="alert" className="form-error">
          {error}
        </span>
      )}
    </>
  );
}
