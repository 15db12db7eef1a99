import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { Dialect, Plan } from '../../../shared/plan';
import { planHarness } from '../../../../test-support/main/plan-test-kit';

/** Thousands of random and malformed inputs: execute never throws and always answers structurally. */
const h = planHarness();
afterAll(() => h.cleanup());

const nasty = fc.oneof(
  fc.anything(),
  fc.string({ maxLength: 20_000 }),
  fc.object({ maxDepth: 4 }),
  fc.constantFrom(null, undefined, NaN, Infinity, -1, 0, 1.5, [], {}, '__proto__'),
);
/** Inputs shaped almost right, so validation deep inside the tools gets exercised too. */
const nearly = fc.record(
  {
    goal: nasty, steps: fc.array(fc.record({ step_number: fc.oneof(fc.integer(), nasty), description: fc.oneof(fc.string(), nasty), depends_on: fc.array(fc.integer({ min: -2, max: 8 })) }), { maxLength: 6 }),
    action: fc.constantFrom('start_step', 'complete_step', 'fail_step', 'skip_step', 'add_step', 'note', 'x'),
    step_number: fc.integer({ min: -1, max: 8 }), new_step: nasty, note: nasty, status: fc.constantFrom('success', 'failed', 'done', 'pending', 'in_progress', 'completed'),
    summary: fc.string(), plan: fc.array(fc.record({ step: fc.string({ maxLength: 600 }), status: fc.constantFrom('pending', 'in_progress', 'completed') }), { maxLength: 14 }),
    objective: fc.string(), initial_steps: fc.array(fc.string()), step_id: fc.integer({ min: -1, max: 6 }), title: fc.string(),
    problem_statement: fc.string(), session_id: fc.string(), planning_analysis: fc.string(),
    wbs_items: fc.array(fc.record({ id: fc.constantFrom('1.0', '1.1', '2.0', ''), title: fc.string(), level: fc.integer({ min: -1, max: 3 }), priority: fc.constantFrom('High', 'Low', 'x'), parent_id: fc.constantFrom('1.0', '2.0', null), dependencies: fc.array(fc.constantFrom('1.0', '1.1', '9')) }), { maxLength: 4 }),
  },
  { requiredKeys: [] },
);

describe.each(Dialect.options)('%s dialect fuzz', (dialect) => {
  it('never throws past execute and keeps the plan valid', async () => {
    const tools = h.service.toolsFor(dialect);
    await fc.assert(
      fc.asyncProperty(fc.nat(), fc.oneof(nasty, nearly), async (pick, input) => {
        const tool = tools[pick % tools.length];
        if (!tool) return;
        // As the loop calls it: parsed once; refused input is one error and no hook runs.
        const parsed = tool.parse(input);
        if (!parsed.ok) {
          expect(parsed.error.message.length).toBeGreaterThan(0);
          return;
        }
        const outcome = await tool.execute(parsed.value, { sessionId: `fuzz-${dialect}`, signal: new AbortController().signal, settings: {} as never });
        expect(typeof outcome.ok).toBe('boolean');
        if (outcome.ok) expect(typeof outcome.content).toBe('string');
        else expect(outcome.error.message.length).toBeGreaterThan(0);
        expect(typeof tool.summarize(parsed.value)).toBe('string');
        expect(typeof tool.describeDryRun(parsed.value)).toBe('string');
        const plan = h.service.getPlan(`fuzz-${dialect}`);
        if (plan) Plan.parse(plan);
      }),
      { numRuns: 600 },
    );
  });
});
