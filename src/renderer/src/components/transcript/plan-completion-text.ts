import type { PlanUndone } from '../../../../shared/plan';
import type { PlanCompletionItem } from '../../../../shared/transcript';

const STATUS_TEXT: Record<PlanCompletionItem['completion']['status'], string> = {
  success: 'Plan completed',
  partial_success: 'Plan partly completed',
  failed: 'Plan failed',
};

/** The card's heading and accessible name: how the plan ended, or that it was undone. */
export function cardTitle(item: PlanCompletionItem): string {
  if (item.undone) return 'Plan undone';
  if (item.planStatus === 'cancelled') return 'Plan aborted';
  return STATUS_TEXT[item.completion.status];
}

/** "Undone: restored a.txt; removed b.md." — what "Undo plan" did to the files. */
export function undoneText(undone: PlanUndone): string {
  const parts = [
    undone.restored.length ? `restored ${undone.restored.join(', ')}` : '',
    undone.deleted.length ? `removed ${undone.deleted.join(', ')}` : '',
    undone.skipped.length ? `left ${undone.skipped.join(', ')} as it is (changed outside Waypoint)` : '',
  ].filter(Boolean);
  return parts.length ? `Undone: ${parts.join('; ')}. No step counts as done any more.` : 'Undone: the plan had not changed any files. No step counts as done any more.';
}
