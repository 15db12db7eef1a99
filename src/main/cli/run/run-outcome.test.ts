import { describe, expect, it } from 'vitest';
import type { WaypointEvent } from '../../../shared/contract';
import type { Plan } from '../../../shared/plan';
import { noticeItem } from '../../common/transcript-items';
import { createPlan } from '../../plan/engine/create-plan';
import { defaultEngineOptions } from '../../plan/engine/engine-types';
import { setStepStatus } from '../../plan/engine/step-status';
import { cancelPlan } from '../../plan/engine/close-plan';
import { RunOutcome } from './run-outcome';

const S = 'chat-1';
const options = defaultEngineOptions({});
function plan(): Plan {
  const made = createPlan({ id: 'p1', dialect: 'structured', goal: 'Ship', steps: [{ id: 1, title: 'A', dependsOn: [] }, { id: 2, title: 'B', dependsOn: [] }] }, 0, options);
  if (!made.ok) throw new Error(made.error);
  return made.plan;
}
function step(p: Plan, stepId: number, status: 'in_progress' | 'completed' | 'skipped'): Plan {
  const next = setStepStatus(p, { stepId, status }, options);
  if (!next.ok) throw new Error(next.error);
  return next.plan;
}
const running: WaypointEvent = { type: 'run_state', sessionId: S, state: { status: 'running', phase: 'requesting' } };
const idle: WaypointEvent = { type: 'run_state', sessionId: S, state: { status: 'idle' } };
const planned = (p: Plan): WaypointEvent => ({ type: 'plan_updated', sessionId: S, plan: p, change: { kind: 'planning', by: 'claude', summary: 'x' } });
const notice = (level: 'info' | 'warning' | 'error', code: string): WaypointEvent => ({ type: 'transcript_item', sessionId: S, item: noticeItem(level, `${code} happened`, code) });

function end(events: WaypointEvent[], initial: Plan | null = null, refused = false) {
  const outcome = new RunOutcome(S, initial);
  if (refused) outcome.refused({ tool: 'edit_file', summary: 'Edit a.txt' });
  for (const event of events) {
    const result = outcome.observe(event);
    if (result) return result;
  }
  return null;
}

describe('how a headless run ends (docs/contract.md §7)', () => {
  const done = step(step(step(step(plan(), 1, 'in_progress'), 1, 'completed'), 2, 'in_progress'), 2, 'completed');

  it('0: the plan completed, or there was no plan and the reply is done', () => {
    expect(end([running, planned(done), idle])).toMatchObject({ exitCode: 0, kind: 'done' });
    expect(end([running, idle])).toMatchObject({ exitCode: 0, text: 'Done.' });
    // The chat's earlier, finished plan still counts when a resumed run only replies.
    expect(end([running, idle], done)).toMatchObject({ exitCode: 0 });
  });

  it('2: a question for a person ends the run at once, whatever comes after', () => {
    const asked: WaypointEvent = {
      type: 'escalation_requested',
      sessionId: S,
      request: { id: 'r1', sessionId: S, stepId: 1, stepTitle: 'A', toolName: 'edit_file', error: 'old_text not found\nmore', errorClass: 'not_found', attempts: [], createdAt: '' },
    };
    expect(end([running, asked, idle])).toMatchObject({ exitCode: 2, person: { kind: 'escalation', requestId: 'r1', options: ['skip', 'abort'], text: 'Step 1 "A" keeps failing (edit_file: old_text not found). Claude needs a decision.' } });
  });

  it('3: a notice naming the app\'s buttons says what to do in a terminal instead', () => {
    const rejected: WaypointEvent = { type: 'transcript_item', sessionId: S, item: noticeItem('error', 'Claude rejected the API key (401). Open Settings and paste a valid key.', 'auth') };
    const ended = end([running, rejected, idle]);
    expect(ended).toMatchObject({ exitCode: 3 });
    expect(ended!.text).not.toContain('Settings');
    expect(ended!.text).toContain('Set ANTHROPIC_API_KEY to a valid key');
  });

  it('3: the API failed beyond its retries (any of the loop\'s failure notices), even with a plan', () => {
    for (const code of ['overloaded', 'rate_limit', 'server', 'network', 'stalled', 'auth']) {
      expect(end([running, planned(plan()), notice('error', code), idle])).toMatchObject({ exitCode: 3, text: `${code} happened` });
    }
  });

  it('4: a refused risky call turns 0 into 4, and so does a plan left unfinished because of it', () => {
    expect(end([running, planned(done), idle], null, true)).toMatchObject({
      exitCode: 4,
      text: 'Refused without --auto-approve: edit_file (Edit a.txt). None of these was done.',
    });
    expect(end([running, planned(plan()), idle], null, true)).toMatchObject({ exitCode: 4 });
    expect(end([running, notice('error', 'server'), idle], null, true)).toMatchObject({ exitCode: 3 });
  });

  it('1: an aborted plan, a Stop, an unfinished plan, a partial one, a cut-off reply', () => {
    const cancelled = cancelPlan(plan(), 'aborted', options);
    if (!cancelled.ok) throw new Error(cancelled.error);
    expect(end([running, planned(cancelled.plan), idle])).toMatchObject({ exitCode: 1, reason: 'aborted' });
    expect(end([running, notice('info', 'stopped'), idle])).toMatchObject({ exitCode: 1, reason: 'stopped' });
    expect(end([running, planned(step(plan(), 1, 'in_progress')), idle])).toMatchObject({ exitCode: 1, reason: 'unfinished', text: expect.stringContaining('2 steps left') });
    expect(end([running, notice('warning', 'turn_limit'), idle])).toMatchObject({ exitCode: 1, reason: 'cut_off' });
    expect(end([running, notice('warning', 'max_tokens'), idle])).toMatchObject({ exitCode: 1, reason: 'cut_off' });
  });

  it("other chats' events and a run that never started decide nothing", () => {
    const other: WaypointEvent = { type: 'run_state', sessionId: 'chat-2', state: { status: 'idle' } };
    expect(end([other, idle])).toBeNull();
  });
});
