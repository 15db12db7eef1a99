import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultSettings } from '../../../shared/settings';
import { PlanService } from '../../plan/plan-service';
import { PlanReminder } from './plan-reminder';
import { testTool } from '../../../../test-support/main/chat-test-setup';
import { ok } from '../../tools/tool';
import { callTool } from '../../tools/define-tool';

async function planWithStepInProgress() {
  const plans = new PlanService({ dataDir: mkdtempSync(join(tmpdir(), 'wp-reminder-')) });
  const ctx = { sessionId: 's', signal: new AbortController().signal, settings: defaultSettings() };
  const tools = plans.toolsFor('structured');
  const byName = (n: string) => tools.find((t) => t.name === n)!;
  await callTool(byName('create_plan'), { goal: 'G', steps: [{ step_number: 1, description: 'Refactor the parser' }] }, ctx);
  await callTool(byName('update_plan'), { action: 'start_step', step_number: 1 }, ctx);
  return { plans, tools: [...tools, testTool('read_file', async () => ok('x'))] };
}

describe('PlanReminder', () => {
  it('nudges once after enough non-planning calls with a step in progress, then counts afresh', async () => {
    const { plans, tools } = await planWithStepInProgress();
    const reminder = new PlanReminder(3);
    const plan = plans.getPlan('s');
    expect(reminder.afterTools(['read_file', 'read_file'], tools, plan)).toBeNull();
    const text = reminder.afterTools(['read_file'], tools, plan);
    expect(text).toContain('step 1 "Refactor the parser" is still in progress');
    expect(reminder.afterTools(['read_file', 'read_file'], tools, plan)).toBeNull();
  });

  it('a planning call resets the count, and no step in progress means no reminder', async () => {
    const { plans, tools } = await planWithStepInProgress();
    const reminder = new PlanReminder(2);
    const plan = plans.getPlan('s');
    reminder.afterTools(['read_file'], tools, plan);
    expect(reminder.afterTools(['update_plan'], tools, plan)).toBeNull();
    expect(reminder.afterTools(['read_file'], tools, plan)).toBeNull();
    expect(reminder.afterTools(['read_file', 'read_file', 'read_file'], tools, null)).toBeNull();
  });
});
