import { useWaypoint } from '../../store/store-context';

/** Why the user's last edit or answer to a proposal was refused (nothing changed), until the next one goes through. */
export function PlanRefusal({ sessionId }: { sessionId: string }) {
  const message = useWaypoint((s) => s.planRefusals[sessionId] ?? null);
  const dismiss = useWaypoint((s) => s.dismissPlanRefusal);
  if (!message) return null;
  return (
    <div className="task-plan-refusal">
      <p role="alert">{message}</p>
      <button type="button" className="link-button" onClick={() => dismiss(sessionId)}>
        Dismiss
      </button>
    </div>
  );
}
