import type { Plan, PlanStep } from '../../../shared/plan';
import { editClause, type PlanEditRecord } from '../../../shared/plan-edit';

/**
 * The checklist dialect sends the whole list each call, so a list written before Claude knew of
 * the user's edits would quietly undo them. A list that contradicts an edit made since Claude's
 * last list (an old title, a skipped or deleted step listed, a user-added or renamed step left
 * out, a moved step back in its old place) is refused with the edits repeated (docs/contract.md §2).
 */
export function contradictionError(plan: Plan, titles: readonly string[]): string | null {
  const since = (plan.edits ?? []).filter((edit) => edit.version > (plan.claudeVersion ?? 0));
  if (since.length === 0) return null;
  const listed = titles.map((t) => t.trim());
  const byId = new Map(plan.steps.map((s) => [s.id, s]));
  const current = new Set(plan.steps.map((s) => s.title));
  if (!since.some((edit) => contradicts(edit, listed, byId, current))) return null;
  return `This list contradicts the user's edits since your last list: ${since.map(editClause).join('; ')}. Send the whole list again with them: the new titles, without the skipped or deleted steps, with the added steps, in the user's order.`;
}

function contradicts(edit: PlanEditRecord, listed: readonly string[], byId: Map<number, PlanStep>, current: Set<string>): boolean {
  const step = byId.get(edit.stepId);
  const live = !!step && step.status !== 'skipped';
  switch (edit.kind) {
    case 'rename':
      return (edit.from !== undefined && listed.includes(edit.from) && !current.has(edit.from)) || (live && !listed.includes(step.title));
    case 'add':
      return live && !listed.includes(step.title);
    case 'skip':
      return !!step && step.status === 'skipped' && listed.includes(step.title);
    case 'delete':
      return !step && listed.includes(edit.title) && !current.has(edit.title);
    case 'move': {
      const other = edit.swappedWith === undefined ? undefined : byId.get(edit.swappedWith);
      if (!step || !other) return false;
      const [a, b] = [listed.indexOf(step.title), listed.indexOf(other.title)];
      if (a < 0 || b < 0) return false;
      // After "down" the step comes after the other one; a list with it before undoes the move.
      return edit.direction === 'down' ? a < b : a > b;
    }
  }
}
