import { useWaypoint } from '../../store/store-context';
import { UndoPlanButton } from '../escalation/UndoPlanButton';

/**
 * "Undo plan" after the plan has finished: the panel hides on completion, so the newest
 * completion card offers it — only while that finished plan is still the chat's plan.
 */
export function CompletedPlanUndo({ itemId }: { itemId: string }) {
  const offered = useWaypoint((s) => {
    const sessionId = s.currentSessionId;
    if (!sessionId) return false;
    const plan = s.plans[sessionId];
    if (!plan || plan.status === 'active') return false;
    const items = s.transcripts[sessionId] ?? [];
    const newest = items.findLast((item) => item.kind === 'plan_completion');
    return newest?.id === itemId;
  });
  return offered ? (
    <div className="plan-done-actions">
      <UndoPlanButton />
    </div>
  ) : null;
}
