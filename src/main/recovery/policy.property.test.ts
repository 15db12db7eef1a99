import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ErrorClass, StepAttempt } from '../../shared/plan';
import { ErrorClass as ErrorClassSchema } from '../../shared/plan';
import { defaultSettings } from '../../shared/settings';
import { failuresSinceFresh } from './attempts';
import { decideRecovery } from './policy';

const classes = ErrorClassSchema.options as ErrorClass[];
const retryable = classes.filter((c) => decideRecovery({ errorClass: c, toolName: 't', message: '', failureCount: 1, settings: defaultSettings(), critical: false, inPlan: true }).strategy !== 'escalate_to_user');

/** Drives the policy the way the executor does: a stream of failures on one step, answered guidance each escalation. */
function simulate(maxRetries: number, failures: ErrorClass[]) {
  const settings = { ...defaultSettings(), maxRetries, retryDelayMs: 0 };
  const attempts: StepAttempt[] = [];
  const escalatedAt: number[] = [];
  failures.forEach((errorClass, i) => {
    const failureCount = failuresSinceFresh(attempts) + 1;
    const decision = decideRecovery({ errorClass, toolName: 'edit_file', message: 'x', failureCount, settings, critical: false, inPlan: true });
    const escalated = decision.strategy === 'escalate_to_user';
    attempts.push({ at: '', tool: 'edit_file', inputSummary: '', error: 'x', errorClass, strategy: decision.strategy, outcome: escalated ? 'escalated' : 'retrying', durationMs: 0 });
    if (escalated) escalatedAt.push(i);
  });
  return { attempts, escalatedAt };
}

describe('policy properties', () => {
  it('never lets a step fail more than maxRetries times before escalating, and always escalates on the next one', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10 }), fc.array(fc.constantFrom(...retryable), { minLength: 1, maxLength: 60 }), (maxRetries, failures) => {
        const { attempts } = simulate(maxRetries, failures);
        let run = 0;
        for (const attempt of attempts) {
          if (attempt.outcome === 'escalated') {
            expect(run).toBe(maxRetries); // exactly the allowed retries went back to Claude first
            run = 0;
          } else {
            run++;
            expect(run).toBeLessThanOrEqual(maxRetries);
          }
        }
      }),
    );
  });

  it('escalates at once for classes that call for the user, whatever the count', () => {
    fc.assert(
      fc.property(fc.constantFrom<ErrorClass>('permission', 'unknown', 'conflict'), fc.integer({ min: 1, max: 20 }), fc.integer({ min: 0, max: 10 }), (errorClass, failureCount, maxRetries) => {
        const decision = decideRecovery({ errorClass, toolName: 't', message: '', failureCount, settings: { ...defaultSettings(), maxRetries }, critical: false, inPlan: true });
        expect(decision.strategy).toBe('escalate_to_user');
        expect(decision.delayMs).toBe(0);
      }),
    );
  });

  it('every decision carries a non-empty hint and a non-negative delay', () => {
    fc.assert(
      fc.property(fc.constantFrom(...classes), fc.string(), fc.integer({ min: 1, max: 30 }), fc.boolean(), fc.boolean(), (errorClass, message, failureCount, critical, inPlan) => {
        const d = decideRecovery({ errorClass, toolName: 'run_command', message, failureCount, settings: defaultSettings(), critical, inPlan });
        expect(d.hint.length).toBeGreaterThan(0);
        expect(d.delayMs).toBeGreaterThanOrEqual(0);
      }),
    );
  });
});
