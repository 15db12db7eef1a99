import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { PlanStep } from '../../../../shared/plan';
import { plan, step } from '../../test-support/fixtures';
import { shareSteps } from '../../store/share-steps';
import { planRows, sameSubtree } from './plan-rows';

/** A copy as JSON would bring it: equal, never identical. */
const fresh = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

describe('planRows', () => {
  it('keeps the node and facts of every row that did not change, and renews the changed ones', () => {
    const v1 = plan([step(1, 'Read', 'in_progress'), step(2, 'Change', 'pending', { dependsOn: [1] }), step(3, 'Test'), step(4, 'Ship')], { version: 1 });
    const v2 = shareSteps(v1, fresh(plan([step(1, 'Read', 'completed'), step(2, 'Change', 'in_progress', { dependsOn: [1] }), step(3, 'Test'), step(4, 'Ship')], { version: 2 })));
    const before = planRows(v1);
    const after = planRows(v2, before);
    expect(after.tree[0]).not.toBe(before.tree[0]);
    expect(after.tree[1]).not.toBe(before.tree[1]);
    expect(after.tree[2]).toBe(before.tree[2]);
    expect(after.tree[3]).toBe(before.tree[3]);
    expect(sameSubtree(after.tree[3]!, before.facts, after.facts)).toBe(true);
    // Step 3 can no longer move up: step 2 above it is not pending any more.
    expect(before.facts.get(3)!.actions).toContain('Move up');
    expect(after.facts.get(3)!.actions).not.toContain('Move up');
    expect(sameSubtree(after.tree[2]!, before.facts, after.facts)).toBe(false);
  });

  it('a row whose number or "after" changed is renewed though its step did not change', () => {
    const v1 = plan([step(1, 'A'), step(2, 'B', 'pending', { dependsOn: [1] })], { version: 1 });
    // Step 3 inserted before step 1: step 1 is now shown as "2.", step 2 as "3." after "2".
    const v2 = shareSteps(v1, fresh(plan([step(3, 'New'), step(1, 'A'), step(2, 'B', 'pending', { dependsOn: [1] })], { version: 2 })));
    const before = planRows(v1);
    const after = planRows(v2, before);
    expect(after.facts.get(2)).toEqual({ number: '3', after: '2', actions: expect.any(Array) as unknown });
    expect(sameSubtree(after.tree[2]!, before.facts, after.facts)).toBe(false);
  });

  it('shows exactly what rows built from scratch show (property)', () => {
    const statuses = fc.constantFrom<PlanStep['status']>('pending', 'in_progress', 'completed', 'failed', 'skipped');
    const steps = fc
      .uniqueArray(fc.record({ id: fc.integer({ min: 1, max: 12 }), status: statuses, parent: fc.option(fc.integer({ min: 1, max: 12 }), { nil: undefined }) }), { selector: (s) => s.id, maxLength: 10 })
      .map((list) =>
        list.map((s, i) => {
          // Parents and dependencies only on steps listed earlier, as the engine keeps them.
          const earlier = list.slice(0, i).map((e) => e.id);
          const parentId = s.parent !== undefined && earlier.includes(s.parent) ? s.parent : undefined;
          return step(s.id, `Step ${s.id}`, s.status, { ...(parentId ? { parentId } : {}), dependsOn: earlier.filter((id) => id % 3 === s.id % 3) });
        }),
      );
    const plain = (rows: ReturnType<typeof planRows>) => JSON.parse(JSON.stringify({ tree: rows.tree, facts: [...rows.facts] })) as unknown;
    fc.assert(
      fc.property(steps, steps, (a, b) => {
        const v1 = plan(a, { version: 1 });
        const v2 = shareSteps(v1, fresh(plan(b, { version: 2 })));
        expect(plain(planRows(v2, planRows(v1)))).toEqual(plain(planRows(v2)));
      }),
    );
  });
});
