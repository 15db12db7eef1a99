import { describe, expect, it } from 'vitest';
import { createPlan } from './engine/create-plan';
import { defaultEngineOptions } from './engine/engine-types';
import { setStepStatus } from './engine/step-status';
import { planToMarkdown } from './plan-markdown';

describe('planToMarkdown', () => {
  it('exports a structured plan in the WBS.md format with checkboxes and statuses', () => {
    const options = defaultEngineOptions();
    const created = createPlan(
      { id: 'p', dialect: 'structured', goal: 'Ship it', steps: [{ id: 1, title: 'Build' }, { id: 2, title: 'Test', dependsOn: [1] }] },
      0,
      options,
    );
    if (!created.ok) throw new Error(created.error);
    const done = setStepStatus(created.plan, { stepId: 1, status: 'completed', result: 'built' }, options);
    if (!done.ok) throw new Error(done.error);
    expect(planToMarkdown(done.plan)).toBe(
      [
        '# Project: Ship it', '', '## Problem Statement', 'Ship it', '', '## Work Breakdown Structure', '',
        '- [x] **Build**', '  - ID: 1', '  - Result: built', '',
        '- [ ] **Test**', '  - ID: 2', '  - Dependencies: 1 (Build)', '',
        '## Planning Summary', '', '- **Steps**: 2', '- **WBS Items**: 2', '- **Status**: active', '',
      ].join('\n'),
    );
  });
});
