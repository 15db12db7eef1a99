import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { describeZodError } from './zod-error';

/** A nested schema with many ways to be wrong: types, bounds, enums, unknown keys, refinements. */
const Schema = z
  .object({
    name: z.string().min(1).max(5),
    count: z.number().int().min(0),
    mode: z.enum(['a', 'b']),
    tags: z.array(z.string()).max(3),
    inner: z.object({ flag: z.boolean(), items: z.array(z.object({ id: z.number() })) }).strict(),
  })
  .strict()
  .refine((v) => v.count < 100, { message: 'count must be below 100', path: ['count'] });

const anything = fc.anything({ maxDepth: 4, withNullPrototype: true, withBigInt: true });
/** Near misses: the right shape with some fields replaced by anything at all. */
const nearMiss = fc.record(
  {
    name: fc.oneof(fc.string(), anything),
    count: fc.oneof(fc.integer(), anything),
    mode: fc.oneof(fc.constantFrom('a', 'b', 'c'), anything),
    tags: fc.oneof(fc.array(fc.string()), anything),
    inner: fc.oneof(fc.record({ flag: fc.boolean(), items: fc.array(fc.record({ id: fc.oneof(fc.integer(), anything) })) }), anything),
    extra: anything,
  },
  { requiredKeys: [] },
);

describe('describeZodError', () => {
  it('words any refused input as one non-empty line that names the first problem and its path', () => {
    fc.assert(
      fc.property(fc.oneof(anything, nearMiss), (input) => {
        const result = Schema.safeParse(input);
        fc.pre(!result.success);
        if (result.success) return;
        const text = describeZodError(result.error);
        expect(text.trim()).not.toBe('');
        expect(text).not.toMatch(/\n/);
        const first = result.error.issues[0]!;
        const path = first.path.map(String).join('.');
        expect(text.startsWith(path ? `${path}: ` : '')).toBe(true);
        // Every listed issue whose path is known appears by its path.
        for (const issue of result.error.issues.slice(0, 4)) {
          if (issue.path.length) expect(text).toContain(`${issue.path.map(String).join('.')}: `);
        }
        if (result.error.issues.length > 4) expect(text).toContain(`and ${result.error.issues.length - 4} more problem(s)`);
      }),
      { numRuns: 300 },
    );
  });

  it('drops zod\'s generic lead-in and keeps the specific words', () => {
    const result = z.object({ step_number: z.number() }).safeParse({ step_number: '1' });
    expect(result.success).toBe(false);
    if (!result.success) expect(describeZodError(result.error)).toBe('step_number: expected number, received string');
  });
});
