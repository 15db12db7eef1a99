import { describe, expect, it } from 'vitest';
import type { Dialect, Plan, PlanStep, StepStatus } from '../../../shared/plan';
import { computeSummary } from '../engine/summary';
import { exportMarkdown } from './export-markdown';

// "Export plan" writes each dialect in its own shape, with every status told apart
// (issue 12, item 13): an in-progress step is never "[ ]", a skipped one never looks pending.

const STEPS: Array<[string, StepStatus, Partial<PlanStep>?]> = [
  ['Create preferences model', 'completed', { result: 'Model in src/prefs.ts' }],
  ['Add database migration', 'in_progress'],
  ['Implement GET endpoint', 'failed', { reason: 'Tests fail | twice' }],
  ['Implement PUT endpoint', 'skipped', { reason: 'Not needed yet' }],
  ['Write tests', 'pending'],
];

function planOf(dialect: Dialect, extra: Partial<Plan> = {}): Plan {
  const steps: PlanStep[] = STEPS.map(([title, status, more], i) => ({
    id: i + 1,
    title,
    status,
    dependsOn: i === 4 ? [1] : [],
    notes: [],
    attempts: [],
    ...more,
  }));
  return {
    id: 'p1',
    dialect,
    goal: 'Add user preferences endpoint',
    status: 'active',
    steps,
    version: 7,
    createdAt: '2025-01-19T14:30:00.000Z',
    updatedAt: '2025-01-19T14:35:00.000Z',
    summary: computeSummary(steps),
    ...extra,
  };
}

describe('Export plan, per dialect', () => {
  it('structured (P4-02): goal, each step by number with its status and details, verification, rollback', () => {
    const markdown = exportMarkdown(
      planOf('structured', { verificationApproach: 'Run the API tests', rollbackStrategy: 'Revert the migration', estimatedToolCalls: 12 }),
    );
    expect(markdown).toBe(`# Plan: Add user preferences endpoint

**Status:** active — 1 of 5 steps completed (20%), 1 in progress, 1 failed, 1 skipped, 1 pending

## Steps

Legend: [x] completed · [>] in progress · [ ] pending · [!] failed · [-] skipped

- [x] **1. Create preferences model** — completed: Model in src/prefs.ts
- [>] **2. Add database migration** — in progress
- [!] **3. Implement GET endpoint** — failed: Tests fail | twice
- [-] **4. Implement PUT endpoint** — skipped: Not needed yet
- [ ] **5. Write tests** — pending
  - Depends on: 1 ("Create preferences model")

## Verification approach

Run the API tests

## Rollback strategy

Revert the migration

**Estimated tool calls:** 12
`);
  });

  it('checklist ("Planning System"): the explanation and the list, one mark per status', () => {
    const markdown = exportMarkdown(planOf('checklist', { explanation: 'Model first, then endpoints' }));
    expect(markdown).toContain('# Add user preferences endpoint\n\nModel first, then endpoints\n\n**Status:** active');
    expect(markdown).toContain('**Version:** 7');
    expect(markdown.split('\n').filter((l) => l.startsWith('- '))).toEqual([
      '- [x] Create preferences model — completed: Model in src/prefs.ts',
      '- [>] Add database migration — in progress',
      '- [!] Implement GET endpoint — failed: Tests fail | twice',
      '- [-] Implement PUT endpoint — skipped: Not needed yet',
      '- [ ] Write tests — pending',
    ]);
    expect(markdown).not.toContain('# Project:');
  });

  it('session ("Planning Tool Suite"): the objective and a table of ids, titles and statuses in the seed\'s words', () => {
    const markdown = exportMarkdown(planOf('session'));
    expect(markdown).toContain('# Objective: Add user preferences endpoint\n');
    expect(markdown).toContain(
      [
        '| ID | Step | Status |',
        '| --- | --- | --- |',
        '| 1 | Create preferences model | done |',
        '| 2 | Add database migration | in_progress |',
        '| 3 | Implement GET endpoint | failed: Tests fail \\| twice |',
        '| 4 | Implement PUT endpoint | skipped: Not needed yet |',
        '| 5 | Write tests | pending |',
      ].join('\n'),
    );
  });

  it('wbs: WBS.md as the seed writes it, with an in-progress, failed or skipped item marked as such', () => {
    const markdown = exportMarkdown(planOf('wbs'));
    expect(markdown).toMatch(/^# Project: Add user preferences endpoint\n/);
    expect(markdown).toContain('- [x] **Create preferences model**\n');
    expect(markdown).toContain('- [>] **Add database migration** — in progress\n');
    expect(markdown).toContain('- [!] **Implement GET endpoint** — failed\n');
    expect(markdown).toContain('- [-] **Implement PUT endpoint** — skipped\n');
    expect(markdown).toContain('- [ ] **Write tests**\n');
    expect(markdown).toContain('## Planning Summary');
    expect(markdown.endsWith('- **Status**: active\n')).toBe(true);
  });

  it('every dialect closes with how the plan ended: Claude\'s summary, and an undo', () => {
    const completion = { status: 'partial_success' as const, summary: 'Model and migration are in.', issues: ['GET fails'], recommendations: 'Fix the tests' };
    const undone = { at: '2025-01-19T15:00:00.000Z', restored: ['src/prefs.ts'], deleted: ['migrations/002.sql'], skipped: [] };
    for (const dialect of ['structured', 'checklist', 'session', 'wbs'] as const) {
      const markdown = exportMarkdown(planOf(dialect, { status: 'cancelled', completion, undone }));
      expect(markdown, dialect).toContain('## Completion\n\n**Outcome:** partial success\n\nModel and migration are in.\n\n### Issues\n\n- GET fails\n\n### Recommendations\n\nFix the tests\n');
      expect(markdown, dialect).toContain(
        '## Undone\n\n"Undo plan" on 2025-01-19T15:00:00.000Z: restored src/prefs.ts; removed migrations/002.sql. No step counts as done.\n',
      );
      if (dialect !== 'wbs') expect(markdown, dialect).toContain('**Status:** undone — ');
      expect(markdown.endsWith('\n') && !markdown.endsWith('\n\n'), dialect).toBe(true);
    }
  });
});
