import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Scenario } from '../../../../test-support/scripted-api/scenario';
import type { EventOf } from '../../../shared/contract';
import type { Settings } from '../../../shared/settings';
import type { ToolCallItem } from '../../../shared/transcript';
import { createWorkspaceTools } from '../../tools/workspace/index';
import { denialMessage, STOPPED_AWAITING_APPROVAL } from './approval-step';
import { closeAll, messagesOf, startChat } from '../../../../test-support/main/chat-test-setup';

// The approval gate through the whole loop: real SDK, scripted server, real files on disk.

let ws: string;
beforeEach(async () => {
  ws = await mkdtemp(join(tmpdir(), 'waypoint-approval-'));
  await writeFile(join(ws, 'app.txt'), 'hello\nold line\n');
});
afterEach(async () => {
  await closeAll();
  await rm(ws, { recursive: true, force: true });
});

const editScenario: Scenario = {
  name: 'edit',
  turns: [
    { kind: 'tool_use', text: 'Editing.', calls: [{ name: 'edit_file', id: 'toolu_E', input: { path: 'app.txt', old_text: 'old line', new_text: 'new line' } }] },
    { kind: 'text', text: 'Edited.' },
  ],
};

async function start(scenario: Scenario, settings: Partial<Settings> = {}) {
  const chat = await startChat(scenario, { tools: createWorkspaceTools(ws), settings });
  const requested = () =>
    chat.recorder.waitFor((e) => e.type === 'approval_requested') as Promise<EventOf<'approval_requested'>>;
  const cards = () => chat.chats.getSession(chat.session.id).transcript.filter((i): i is ToolCallItem => i.kind === 'tool_call');
  return { ...chat, requested, cards };
}

const fileText = () => readFile(join(ws, 'app.txt'), 'utf8');

describe('approval gate in the loop', () => {
  it('pauses on an edit with its diff, and Approve writes the file; the request is answered once', async () => {
    const { service, chats, recorder, session, requested, cards } = await start(editScenario);
    service.sendMessage(session.id, 'fix the file');
    const { request } = await requested();
    expect(request).toMatchObject({ sessionId: session.id, toolUseId: 'toolu_E', toolName: 'edit_file', kind: 'edit', summary: 'Edit app.txt' });
    expect(request.dryRun).toContain('-old line');
    expect(request.dryRun).toContain('+new line');

    const snapshot = chats.getSession(session.id);
    expect(snapshot.pendingApproval).toEqual(request);
    expect(snapshot.runState).toEqual({ status: 'awaiting_approval', requestId: request.id });
    expect(cards()[0]).toMatchObject({ status: 'awaiting_approval', name: 'edit_file' });
    expect(await fileText()).toBe('hello\nold line\n');

    expect(service.answerApproval(session.id, request.id, 'approve')).toEqual({ accepted: true });
    await recorder.idle(session.id, recorder.events.length);
    expect(await fileText()).toBe('hello\nnew line\n');
    expect(service.answerApproval(session.id, request.id, 'deny')).toEqual({ accepted: false });
    expect(chats.getSession(session.id).pendingApproval).toBeNull();
    expect(cards()[0]).toMatchObject({ status: 'done' });
    expect(recorder.ofType('approval_resolved')).toEqual([{ type: 'approval_resolved', sessionId: session.id, requestId: request.id, decision: 'approved' }]);
    expect(chats.getSession(session.id).transcript.at(-1)).toMatchObject({ kind: 'assistant', text: 'Edited.' });
  });

  it('Deny leaves the file untouched and sends Claude an is_error result; the run goes on', async () => {
    const { service, chats, recorder, session, server, requested, cards } = await start(editScenario);
    service.sendMessage(session.id, 'fix the file');
    const { request } = await requested();
    service.answerApproval(session.id, request.id, 'deny');
    await recorder.idle(session.id, recorder.events.length);

    expect(await fileText()).toBe('hello\nold line\n');
    const results = messagesOf(server, 1)[2]!.content;
    expect(results).toEqual([{ type: 'tool_result', tool_use_id: 'toolu_E', content: denialMessage('edit_file'), is_error: true }]);
    expect(denialMessage('edit_file')).toBe("The user denied this edit_file call. Don't retry it unchanged; ask the user or choose another approach.");
    expect(cards()[0]).toMatchObject({ status: 'denied', result: denialMessage('edit_file') });
    expect(chats.getSession(session.id).transcript.at(-1)).toMatchObject({ kind: 'assistant', text: 'Edited.' });
  });

  it('Stop while awaiting approval cancels it and keeps the history valid for the next message', async () => {
    const { service, chats, recorder, session, server, requested, cards } = await start({ ...editScenario, turns: editScenario.turns.slice(0, 1) });
    service.sendMessage(session.id, 'fix the file');
    const { request } = await requested();
    expect(service.stop(session.id)).toEqual({ stopped: true });
    await recorder.idle(session.id);
    expect(recorder.ofType('approval_resolved').map((e) => e.decision)).toEqual(['cancelled']);
    expect(chats.getSession(session.id).pendingApproval).toBeNull();
    expect(service.answerApproval(session.id, request.id, 'approve')).toEqual({ accepted: false });
    expect(await fileText()).toBe('hello\nold line\n');
    expect(cards()[0]).toMatchObject({ status: 'error', result: STOPPED_AWAITING_APPROVAL });

    const mark = recorder.events.length;
    service.sendMessage(session.id, 'never mind');
    await recorder.idle(session.id, mark);
    const history = messagesOf(server, 1);
    expect(history.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(history[2]!.content).toEqual([
      { type: 'tool_result', tool_use_id: 'toolu_E', content: STOPPED_AWAITING_APPROVAL, is_error: true },
      { type: 'text', text: 'never mind' },
    ]);
  });

  it('a stale or unknown request id is refused and changes nothing', async () => {
    const { service, chats, recorder, session, requested } = await start(editScenario);
    service.sendMessage(session.id, 'fix the file');
    const { request } = await requested();
    expect(service.answerApproval(session.id, 'not-a-request', 'approve')).toEqual({ accepted: false });
    const other = chats.newSession();
    expect(service.answerApproval(other.id, request.id, 'approve')).toEqual({ accepted: false });
    expect(chats.getSession(session.id).pendingApproval).toEqual(request);
    expect(await fileText()).toBe('hello\nold line\n');
    service.answerApproval(session.id, request.id, 'approve');
    await recorder.idle(session.id, recorder.events.length);
    expect(await fileText()).toBe('hello\nnew line\n');
  });

  it('auto-approve for edits skips the card', async () => {
    const { service, recorder, session, cards } = await start(editScenario, { autoApproveEdits: true });
    service.sendMessage(session.id, 'fix the file');
    await recorder.idle(session.id);
    expect(recorder.ofType('approval_requested')).toEqual([]);
    expect(await fileText()).toBe('hello\nnew line\n');
    expect(cards().map((c) => c.status)).toEqual(['done']);
  });

  it('an allow-listed command runs without approval; a chained one still asks, per request', async () => {
    const { service, recorder, session, server, requested, cards } = await start(
      {
        name: 'cmds',
        turns: [
          {
            kind: 'tool_use',
            calls: [
              { name: 'run_command', id: 'toolu_1', input: { command: 'echo allowed' } },
              { name: 'run_command', id: 'toolu_2', input: { command: 'echo chained; echo more' } },
            ],
          },
          { kind: 'text', text: 'Ran them.' },
        ],
      },
      { approvalRules: [{ id: 'r1', tool: 'run_command', pattern: 'echo allowed', effect: 'allow', createdAt: '2025-01-01T00:00:00.000Z' }] },
    );
    service.sendMessage(session.id, 'run things');
    const { request } = await requested();
    expect(request).toMatchObject({ toolUseId: 'toolu_2', kind: 'command' });
    expect(request.dryRun).toBe('Would run: echo chained; echo more\nin the workspace root (time limit 120.0 s)');
    expect(cards().map((c) => c.status)).toEqual(['done', 'awaiting_approval']);
    service.answerApproval(session.id, request.id, 'approve');
    await recorder.idle(session.id, recorder.events.length);
    expect(recorder.ofType('approval_requested')).toHaveLength(1);
    const results = messagesOf(server, 1)[2]!.content as { content: string; is_error?: boolean }[];
    expect(results[0]!.content).toContain('allowed');
    expect(results[1]!.content).toContain('chained\nmore');
    expect(results.some((r) => r.is_error)).toBe(false);
  });
});
