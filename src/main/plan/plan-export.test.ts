import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PlanService } from './plan-service';
import { UserFacingError } from '../common/errors';
import { exportPlanMarkdown } from './plan-export';
import { callTool } from '../tools/define-tool';

describe('exportPlanMarkdown', () => {
  it('refuses clearly without a plan', () => {
    expect(() => exportPlanMarkdown(null)).toThrow(UserFacingError);
  });

  it('exports the plan in its dialect\'s shape with a file name from the goal', async () => {
    const plans = new PlanService({ dataDir: mkdtempSync(join(tmpdir(), 'wp-export-')) });
    const [createPlan] = plans.toolsFor('structured');
    const ctx = { sessionId: 's1', signal: new AbortController().signal, settings: {} as never };
    const outcome = await callTool(createPlan!, 
      { goal: 'Ship: the Dark Mode!', steps: [{ step_number: 1, description: 'Add CSS variables' }] },
      ctx,
    );
    expect(outcome.ok).toBe(true);
    const exported = exportPlanMarkdown(plans.getPlan('s1'));
    expect(exported.fileName).toBe('ship-the-dark-mode-plan.md');
    expect(exported.markdown).toContain('# Plan: Ship: the Dark Mode!');
    expect(exported.markdown).toContain('- [ ] **1. Add CSS variables** — pending');
    plans.dispose();
  });
});
