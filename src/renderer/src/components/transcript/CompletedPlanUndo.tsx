import type { PlanCompletionItem } from '../../../../shared/transcript';
import { useWaypoint } from '../../store/store-context';
import { UndoPlanButton } from '../escalation/UndoPlanButton';
import { ExportPlanButton } from '../plan/ExportPlanButton';

/**
 * "Export plan" and "Undo plan" after the plan has finished: the panel hides then, so the card
 * offers them — while the card's plan is still the chat's plan (older cards name a plan that was
 * replaced; a card from before cards named their plan counts when it is the newest).
 */
export function CompletedPlanUndo({ item }: { item: PlanCompletionItem }) {
  const offered = useWaypoint((s) => {
    const sessionId = s.currentSessionId;
    if (!sessionId) return false;
    const plan = s.plans[sessionId];
    if (!plan || plan.status === 'active') return false;
    if (item.planId) return plan.id === item.planId;
    const items = s.transcripts[sessionId]?.items ?? [];
    return items.findLast((other) => other.kind === 'plan_completion')?.id === item.id;
  });
  // An undo that put every file back leaves nothing to undo; one that left files changed outside
  // Waypoint may still be asked to overwrite them.
  const undoable = useWaypoint((s) => {
    const undone = s.currentSessionId ? s.plans[s.currentSessionId]?.undone : undefined;
    return !undone || undone.skipped.length > 0;
  });
  return offered ? (
    <div className="plan-done-actions">
      <ExportPlanButton />
      <UndoPlanButton available={undoable} />
    </div>
  ) : null;
}
