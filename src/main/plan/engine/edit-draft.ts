import type { PlanStep } from '../../../shared/plan';
import type { PlanEditRecord } from '../../../shared/plan-edit';

/** A user edit worked out on the plan, before it is sealed as the next version (user-edits.ts). */
export type EditDraft =
  | { ok: true; steps: PlanStep[]; record: Omit<PlanEditRecord, 'version' | 'at'>; summary: string; nextStepId?: number }
  | { ok: false; error: string }
  | { ok: true; unchanged: true };
