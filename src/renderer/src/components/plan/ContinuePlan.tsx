import { continuePlanMessage, stepsLeftText } from '../../../../shared/plan-pause';
import { useWaypoint } from '../../store/store-context';

/** Inside the "Task plan" region while the plan is paused: says so, and "Continue plan" sends the message that resumes it. */
export function ContinuePlan({ left }: { left: number }) {
  const sessionId = useWaypoint((s) => s.currentSessionId);
  const plan = useWaypoint((s) => (sessionId ? s.plans[sessionId] : null));
  const sendMessage = useWaypoint((s) => s.sendMessage);
  if (!plan) return null;
  return (
    <div className="task-plan-paused-bar">
      <span>{stepsLeftText(left)}: continue the plan, or write your own message.</span>
      <button type="button" className="btn btn--primary btn--small" onClick={() => void sendMessage(continuePlanMessage(plan))}>
        Continue plan
      </button>
    </div>
  );
}
