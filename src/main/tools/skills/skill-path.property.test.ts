import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { skillPathProblem } from './skill-path';

const ROOT = path.resolve('/skills/pdf-forms');
const segment = fc.constantFrom('..', '.', '', 'a', 'b.md', '...', '..a', 'a..', '~', 'C:', '\\', '%2e%2e', ' ', '\u0000');
const relPath = fc.array(segment, { minLength: 1, maxLength: 8 }).map((parts) => parts.join('/'));
const anyPath = fc.oneof(relPath, fc.string(), relPath.map((p) => `/${p}`));

describe('the skill path validator (property)', () => {
  it('never accepts a path that resolves outside the skill folder', () => {
    fc.assert(
      fc.property(anyPath, (given) => {
        if (skillPathProblem(given) !== null) return;
        const rel = path.relative(ROOT, path.resolve(ROOT, given));
        // '..a' is a name inside; only '..' itself or a '../' prefix leaves.
        expect(rel === '' || (rel !== '..' && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel))).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it('refuses every path with a ".." segment or an absolute start, whatever surrounds it', () => {
    fc.assert(
      fc.property(relPath, relPath, (before, after) => {
        expect(skillPathProblem(`${before}/../${after}`)).not.toBeNull();
        expect(skillPathProblem(`/${before}`)).not.toBeNull();
      }),
    );
  });

  it('accepts plain relative paths', () => {
    fc.assert(
      fc.property(fc.array(fc.stringMatching(/^[a-z0-9_-][a-z0-9_.-]{0,10}$/).filter((s) => s !== '..' && s !== '.'), { minLength: 1, maxLength: 5 }), (parts) => {
        expect(skillPathProblem(parts.join('/'))).toBeNull();
      }),
    );
  });
});
