import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { budgetVerdict, estimateRequestUsd, expectedOutputTokens, FIRST_REPLY_TOKENS } from './budget-gate';

// The budget arithmetic (docs/architecture.md "Plan budgets"): a request is sent only when the
// spend plus its estimate stays within the budget, so the plan ends over its budget by at most
// what one request cost beyond its estimate; a budget lowered below the spend stops the next one.

const usd = fc.double({ min: 0.0001, max: 50, noNaN: true, noDefaultInfinity: true });
const cost = fc.double({ min: 0, max: 5, noNaN: true, noDefaultInfinity: true });
const request = fc.record({ estimate: cost, actual: cost });

describe('budgetVerdict', () => {
  it('never lets a plan pass its budget by more than one request’s surprise (its cost beyond its estimate)', () => {
    fc.assert(
      fc.property(usd, fc.array(request, { maxLength: 60 }), (budget, requests) => {
        let spent = 0;
        let worstSurprise = 0;
        for (const r of requests) {
          if (budgetVerdict({ usd: budget }, spent, r.estimate, 0) !== null) break;
          spent += r.actual;
          worstSurprise = Math.max(worstSurprise, r.actual - r.estimate);
        }
        expect(spent).toBeLessThanOrEqual(budget + worstSurprise + 1e-9);
      }),
    );
  });

  it('with estimates that hold, never passes the budget at all', () => {
    fc.assert(
      fc.property(usd, fc.array(request, { maxLength: 60 }), (budget, requests) => {
        let spent = 0;
        for (const r of requests) {
          const actual = Math.min(r.actual, r.estimate);
          if (budgetVerdict({ usd: budget }, spent, r.estimate, 0) !== null) break;
          spent += actual;
        }
        expect(spent).toBeLessThanOrEqual(budget + 1e-9);
      }),
    );
  });

  it('a budget lowered below the spend stops the very next request, whatever its estimate', () => {
    fc.assert(
      fc.property(usd, cost, fc.double({ min: 0.001, max: 0.999, noNaN: true }), (spent, estimate, share) => {
        expect(budgetVerdict({ usd: spent * share }, spent, estimate, 0)).toBe('usd');
      }),
    );
  });

  it('stops on time once the minutes have passed, and never without a limit', () => {
    fc.assert(
      fc.property(fc.double({ min: 0.1, max: 1000, noNaN: true }), fc.double({ min: 0, max: 2000, noNaN: true }), cost, (minutes, elapsed, estimate) => {
        expect(budgetVerdict({ minutes }, 0, estimate, elapsed)).toBe(elapsed >= minutes ? 'time' : null);
        expect(budgetVerdict({}, 1e9, estimate, elapsed)).toBeNull();
        expect(budgetVerdict(undefined, 1e9, estimate, elapsed)).toBeNull();
      }),
    );
  });
});

describe('the estimate', () => {
  it('is the input at the input price plus the expected reply at the output price', () => {
    // Sonnet: $3 in, $15 out per million tokens.
    expect(estimateRequestUsd('claude-sonnet-4-6', 1_000_000, 0)).toBeCloseTo(3, 10);
    expect(estimateRequestUsd('claude-sonnet-4-6', 0, 1_000_000)).toBeCloseTo(15, 10);
    expect(estimateRequestUsd('claude-haiku-4-5', 2_000, 400)).toBeCloseTo((2_000 * 1 + 400 * 5) / 1e6, 12);
  });

  it('expects the mean of the recent replies, not max_tokens; a first reply a short one', () => {
    expect(expectedOutputTokens([{ role: 'user', content: 'hi' }])).toBe(FIRST_REPLY_TOKENS);
    const short = expectedOutputTokens([{ role: 'user', content: 'a' }, { role: 'assistant', content: 'x'.repeat(400) }]);
    const long = expectedOutputTokens([{ role: 'user', content: 'a' }, { role: 'assistant', content: 'x'.repeat(40_000) }]);
    expect(short).toBeLessThan(long);
    expect(long).toBeLessThan(20_000);
  });
});
