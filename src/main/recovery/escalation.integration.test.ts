import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { MessageParam } from '@anthropic-ai/sdk/resources/messages';
import { afterEach, describe, expect, it } from 'vitest';
import {
  GUIDANCE_FIXED_TEXT,
  RECOVERY_FILE,
  RECOVERY_FILE_TEXT,
  recoveryEscalationAbort,
  recoveryEscalationGuidance,
  recoveryEscalationSkip,
} from '../../../test-support/scenarios/recovery-escalation';
import type { Scenario } from '../../../test-support/scripted-api/scenario';
import type { EventOf } from '../../shared/contract';
import { historyProblems } from '../../../test-support/main/history-check';
import { closeRecoveryChats, startRecoveryChat } from '../../../test-support/main/recovery-test-setup';

afterEach(closeRecoveryChats);

type ToolResult = { type: string; tool_use_id?: string; content?: unknown; is_error?: boolean; text?: string };
const messagesOf = (server: { requests: { body: unknown }[] }, i: number) => (server.requests[i]!.body as { messages: MessageParam[] }).messages;
const lastUserBlocks = (messages: MessageParam[]): ToolResult[] => {
  const last = messages.at(-1)!;
  return typeof last.content === 'string' ? [] : (last.content as ToolResult[]);
};

/** Runs a scenario to its escalation and returns everything a test needs. */
async function toEscalation(scenario: Scenario) {
  const chat = await startRecoveryChat(scenario, { files: { [RECOVERY_FILE]: RECOVERY_FILE_TEXT } });
  chat.service.sendMessage(chat.session.id, 'Tidy notes.txt');
  const event = (await chat.recorder.waitFor((e) => e.type === 'escalation_requested')) as EventOf<'escalation_requested'>;
  return { ...chat, request: event.request };
}

describe('escalation after maxRetries (real SDK, scripted server, real files)', () => {
  it('pauses on the third failure of a step, after two is_error results with hints went back to Claude', async () => {
    const { server, chats, session, request } = await toEscalation(recoveryEscalationSkip);
    // create, start, edit ×3: the third failure is held back while the user is asked.
    expect(server.requests).toHaveLength(5);
    for (const i of [3, 4]) {
      const [result] = lastUserBlocks(messagesOf(server, i));
      expect(result).toMatchObject({ type: 'tool_result', is_error: true });
      expect(String(result!.content)).toContain('old_text was not found in notes.txt');
      expect(String(result!.content)).toContain('refresh context and retry');
      expect(String(result!.content)).toMatch(/read_file the file/);
    }
    expect(request).toMatchObject({ stepId: 1, stepTitle: 'Fix the greeting typo', toolName: 'edit_file', errorClass: 'not_found' });
    expect(request.attempts.map((a) => [a.outcome, a.strategy])).toEqual([
      ['retrying', 'refresh_context_and_retry'],
      ['retrying', 'refresh_context_and_retry'],
      ['escalated', 'escalate_to_user'],
    ]);
    expect(request.attempts[0]!.inputSummary).toContain('path="notes.txt"');
    const snapshot = chats.getSession(session.id);
    expect(snapshot.runState).toEqual({ status: 'awaiting_escalation', requestId: request.id });
    expect(snapshot.pendingEscalation).toEqual(request);
    expect(snapshot.plan!.steps[0]!.attempts).toHaveLength(3);
    expect(snapshot.plan!.steps[0]!.status).toBe('in_progress');
  });

  it('Skip: the step is skipped with the reason, Claude is told, and the run finishes the plan', async () => {
    const { server, service, chats, session, request, recorder } = await toEscalation(recoveryEscalationSkip);
    expect(service.answerEscalation(session.id, request.id, { kind: 'skip' })).toEqual({ accepted: true });
    expect(service.answerEscalation(session.id, request.id, { kind: 'skip' })).toEqual({ accepted: false }); // answered once
    await recorder.waitFor((e) => e.type === 'transcript_item' && e.item.kind === 'assistant' && e.item.text.includes('skipped as you asked') && e.item.status === 'done');
    await recorder.idle(session.id, recorder.events.findIndex((e) => e.type === 'escalation_resolved'));
    const [held] = lastUserBlocks(messagesOf(server, 5));
    expect(held).toMatchObject({ type: 'tool_result', is_error: true });
    expect(String(held!.content)).toContain('The user chose to skip step 1');
    const plan = chats.getSession(session.id).plan!;
    expect(plan.steps[0]).toMatchObject({ status: 'skipped' });
    expect(plan.steps[0]!.reason).toContain('Skipped by the user after 3 failed attempts');
    expect(plan.steps[1]!.status).toBe('completed');
    expect(plan.status).toBe('completed');
    expect(chats.getSession(session.id).pendingEscalation).toBeNull();
    expect(recorder.ofType('escalation_resolved').map((e) => e.answer)).toEqual(['skip']);
    expect(historyProblems(messagesOf(server, server.requests.length - 1))).toEqual([]);
  });

  it('Abort: the plan is cancelled, the run stops cleanly, and nothing more is sent until the user writes', async () => {
    const { server, service, chats, session, request, recorder, workspace } = await toEscalation(recoveryEscalationAbort);
    const mark = recorder.events.length;
    expect(service.answerEscalation(session.id, request.id, { kind: 'abort' })).toEqual({ accepted: true });
    await recorder.idle(session.id, mark);
    await new Promise((r) => setTimeout(r, 150));
    expect(server.requests).toHaveLength(5);
    const snapshot = chats.getSession(session.id);
    expect(snapshot.plan!.status).toBe('cancelled');
    expect(snapshot.runState).toEqual({ status: 'idle' });
    // The abort note, then the aborted plan's card (Export, Undo plan) closes the run.
    expect(snapshot.transcript.slice(-2)).toMatchObject([
      { kind: 'notice', code: 'escalation_abort' },
      { kind: 'plan_completion', planStatus: 'cancelled', by: 'waypoint', planId: snapshot.plan!.id },
    ]);
    expect(readFileSync(join(workspace, RECOVERY_FILE), 'utf8')).toBe(RECOVERY_FILE_TEXT);

    const next = recorder.events.length;
    service.sendMessage(session.id, 'What happened?');
    await recorder.idle(session.id, next);
    const history = messagesOf(server, 5);
    expect(historyProblems(history)).toEqual([]);
    const blocks = lastUserBlocks(history);
    expect(blocks[0]).toMatchObject({ type: 'tool_result', is_error: true });
    expect(String(blocks[0]!.content)).toContain('The user aborted the plan');
    expect(blocks.at(-1)).toMatchObject({ type: 'text', text: 'What happened?' });
  });

  it('Guidance: the text reaches Claude, the step is in progress again with a fresh count, and the run goes on', async () => {
    const { server, service, chats, session, request, recorder, workspace } = await toEscalation(recoveryEscalationGuidance);
    const guidance = 'The file says "Hello wrld" — read it and replace exactly that.';
    expect(service.answerEscalation(session.id, request.id, { kind: 'guidance', text: guidance })).toEqual({ accepted: true });
    expect(chats.getSession(session.id).plan!.steps[0]!.status).toBe('in_progress');
    await recorder.waitFor((e) => e.type === 'transcript_item' && e.item.kind === 'assistant' && e.item.text.includes('Thanks for the pointer') && e.item.status === 'done');
    const [held] = lastUserBlocks(messagesOf(server, 5));
    expect(String(held!.content)).toContain(guidance);
    expect(String(held!.content)).toContain('Its retry count starts afresh');
    expect(readFileSync(join(workspace, RECOVERY_FILE), 'utf8')).toBe(GUIDANCE_FIXED_TEXT);
    const plan = chats.getSession(session.id).plan!;
    expect(plan.steps.map((s) => s.status)).toEqual(['completed', 'completed']);
    expect(plan.steps[0]!.attempts).toHaveLength(3);
    expect(chats.getSession(session.id).transcript.some((i) => i.kind === 'notice' && i.code === 'escalation_guidance' && i.text.includes(guidance))).toBe(true);
    expect(historyProblems(messagesOf(server, server.requests.length - 1))).toEqual([]);
  });

  it('Stop while the escalation is pending cancels it and leaves a valid history', async () => {
    const { server, service, chats, session, request, recorder } = await toEscalation(recoveryEscalationAbort);
    const mark = recorder.events.length;
    service.stop(session.id);
    await recorder.idle(session.id, mark);
    expect(recorder.ofType('escalation_resolved').at(-1)).toMatchObject({ requestId: request.id, answer: 'cancelled' });
    expect(chats.getSession(session.id).pendingEscalation).toBeNull();
    expect(service.answerEscalation(session.id, request.id, { kind: 'skip' })).toEqual({ accepted: false });
    const next = recorder.events.length;
    service.sendMessage(session.id, 'go on');
    await recorder.idle(session.id, next);
    expect(historyProblems(messagesOf(server, 5))).toEqual([]);
  });

  it('a stale or foreign request id changes nothing', async () => {
    const { service, chats, session, request } = await toEscalation(recoveryEscalationSkip);
    expect(service.answerEscalation(session.id, 'not-the-id', { kind: 'skip' })).toEqual({ accepted: false });
    expect(chats.getSession(session.id).pendingEscalation?.id).toBe(request.id);
    expect(chats.getSession(session.id).plan!.steps[0]!.status).toBe('in_progress');
  });
});
