import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { StepAttempt } from '../../../shared/plan';
import { defaultSettings } from '../../../shared/settings';
import { failuresSinceFresh } from '../../recovery/attempts';
import { PlanService } from '../plan-service';
import { callTool } from '../../tools/define-tool';

const attempt = (outcome: StepAttempt['outcome']): StepAttempt => ({
  at: '2026-11-22T00:00:00.000Z',
  tool: 'edit_file',
  inputSummary: 'path="a.txt"',
  error: 'old_text not found',
  errorClass: 'not_found',
  strategy: 'refresh_context_and_retry',
  outcome,
  durationMs: 3,
});

describe('a step that completes after failed attempts', () => {
  it('marks its last retry as the one that succeeded, and the failure count starts afresh', async () => {
    const plans = new PlanService({ dataDir: mkdtempSync(join(tmpdir(), 'wp-settle-')) });
    const ctx = { sessionId: 's', signal: new AbortController().signal, settings: defaultSettings() };
    const [create, update] = ['create_plan', 'update_plan'].map((n) => plans.toolsFor('structured').find((t) => t.name === n)!);
    await callTool(create!, { goal: 'G', steps: [{ step_number: 1, description: 'Edit a.txt' }] }, ctx);
    await callTool(update!, { action: 'start_step', step_number: 1 }, ctx);
    plans.recordAttempt('s', 1, attempt('retrying'));
    plans.recordAttempt('s', 1, attempt('retrying'));
    expect(failuresSinceFresh(plans.getPlan('s')!.steps[0]!.attempts)).toBe(2);

    await callTool(update!, { action: 'complete_step', step_number: 1, result: 'done' }, ctx);
    const attempts = plans.getPlan('s')!.steps[0]!.attempts;
    expect(attempts.map((a) => a.outcome)).toEqual(['retrying', 'succeeded']);
    expect(failuresSinceFresh(attempts)).toBe(0);
    plans.dispose();
  });
});
