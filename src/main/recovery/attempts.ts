import type { PlanStep, StepAttempt } from '../../shared/plan';

/**
 * A step's failures since it last started afresh: every attempt after the most recent escalation
 * (guidance, skip or Stop answered that one) or success, so "Send guidance" restarts the retry
 * count without erasing the history the user sees.
 */
export function failuresSinceFresh(attempts: readonly StepAttempt[]): number {
  let count = 0;
  for (let i = attempts.length - 1; i >= 0; i--) {
    const outcome = attempts[i]!.outcome;
    if (outcome === 'escalated' || outcome === 'succeeded') break;
    count++;
  }
  return count;
}

export function isCritical(step: PlanStep): boolean {
  return step.priority === 'high' || step.isVerification === true;
}

/** One line of a tool input for the attempt log: short, never the whole file content. */
export function summarizeInput(input: unknown, max = 200): string {
  if (input === null || typeof input !== 'object') return String(input).slice(0, max);
  const parts = Object.entries(input as Record<string, unknown>).map(([key, value]) => {
    const text = typeof value === 'string' ? JSON.stringify(value.length > 60 ? `${value.slice(0, 60)}…` : value) : JSON.stringify(value);
    return `${key}=${text ?? 'undefined'}`;
  });
  const line = parts.join(', ');
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}
