import type { Plan, PlanStep, PlanUndone } from '../../../shared/plan';
import type { EngineOptions, OpResult } from './engine-types';
import { sealPlan } from './seal';

export type UndoFiles = Omit<PlanUndone, 'at'>;

const UNDONE_NOTE = 'Undone: "Undo plan" put back the files the plan changed.';
const RESET: ReadonlySet<PlanStep['status']> = new Set(['completed', 'in_progress', 'failed']);

/**
 * The user's "Undo plan" went through: the plan ends (cancelled), and no step claims to be done
 * any more - completed, running and failed steps are pending again, with a note; skipped ones
 * stay skipped. Undoing again (files left alone the first time) only updates the file lists.
 */
export function markUndone(plan: Plan, files: UndoFiles, options: EngineOptions): OpResult {
  const before = plan.undone;
  const restored = union(before?.restored, files.restored);
  const deleted = union(before?.deleted, files.deleted);
  const undone: PlanUndone = {
    at: options.now().toISOString(),
    restored,
    deleted,
    skipped: files.skipped.filter((path) => !restored.includes(path) && !deleted.includes(path)),
  };
  const steps = before
    ? plan.steps
    : plan.steps.map((step) => (RESET.has(step.status) ? { ...step, status: 'pending' as const, notes: [...step.notes, UNDONE_NOTE] } : step));
  return sealPlan({ ...plan, steps, status: 'cancelled', undone }, plan.version, options, `Undid plan: ${describe(files)}`);
}

function union(a: readonly string[] = [], b: readonly string[]): string[] {
  return [...new Set([...a, ...b])];
}

function describe(files: UndoFiles): string {
  const parts = [
    files.restored.length ? `restored ${files.restored.join(', ')}` : '',
    files.deleted.length ? `removed ${files.deleted.join(', ')}` : '',
    files.skipped.length ? `left ${files.skipped.join(', ')} alone` : '',
  ].filter(Boolean);
  return parts.length ? parts.join('; ') : 'no files to change';
}
