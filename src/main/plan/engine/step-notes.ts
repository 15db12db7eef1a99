import type { Plan, StepAttempt } from '../../../shared/plan';
import { type EngineOptions, MAX_TEXT_LENGTH, type OpResult, rejected } from './engine-types';
import { sealStepChange } from './seal-step';
import { findStep } from './step-lookup';
import { cleanText } from './titles';

/** How many notes and attempts a step keeps, so a long run cannot grow a snapshot unbounded. */
const MAX_NOTES = 50;
const MAX_ATTEMPTS = 50;

/** Records an observation on a step (structured `note` action). Allowed on any plan with that step. */
export function addNote(plan: Plan, stepId: number, note: string, options: EngineOptions): OpResult {
  const text = cleanText(note, MAX_TEXT_LENGTH);
  if (!text) return rejected('The note is empty; write the observation in "note".');
  const found = findStep(plan, stepId);
  if (!found.ok) return rejected(found.error);
  const notes = [...found.step.notes, text].slice(-MAX_NOTES);
  return sealStepChange(plan, found.index, { ...found.step, notes }, options, `Updated plan: note on step ${stepId}`);
}

/** Appends one recovery attempt to a step's history (docs/contract.md §3). */
export function recordAttempt(plan: Plan, stepId: number, attempt: StepAttempt, options: EngineOptions): OpResult {
  const found = findStep(plan, stepId);
  if (!found.ok) return rejected(found.error);
  const attempts = [...found.step.attempts, { ...attempt }].slice(-MAX_ATTEMPTS);
  const n = found.step.attempts.length + 1;
  return sealStepChange(
    plan,
    found.index,
    { ...found.step, attempts },
    options,
    `Updated plan: step ${stepId} attempt ${n} (${attempt.errorClass}, ${attempt.outcome})`,
  );
}
