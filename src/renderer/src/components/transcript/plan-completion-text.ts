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
  // planning_finalize ends the planning, not the work: the breakdown is what was completed.
  if (item.dialect === 'wbs' && item.completion.status === 'success') return 'Work breakdown completed';
  return STATUS_TEXT[item.completion.status];
}

/**
 * The card's count line. A WBS plan's items are planned, not worked through, so "0/6 steps
 * completed" would read as failure: it says how many items the breakdown holds and how many
 * of them are done, if any.
 */
export function countsText(item: PlanCompletionItem): string {
  const { counts } = item;
  const extra = `${counts.failed > 0 ? `, ${counts.failed} failed` : ''}${counts.skipped > 0 ? `, ${counts.skipped} skipped` : ''}`;
  if (item.dialect === 'wbs') {
    const items = `${counts.total} work item${counts.total === 1 ? '' : 's'} planned`;
    return counts.completed > 0 ? `${items}, ${counts.completed} done${extra}` : `${items}${extra}`;
  }
  return `${counts.completed}/${counts.total} steps completed${extra}`;
}

/** "Goal check: met", "Goal check: not met", or "Goal check failed" (never read as met). */
export function goalCheckTitle(check: NonNullable<PlanCompletionItem['goalCheck']>): string {
  if (check.outcome === 'met') return 'Goal check: met';
  if (check.outcome === 'not_met') return 'Goal check: not met';
  return 'Goal check failed';
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
