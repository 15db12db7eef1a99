import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../../test-support/main/app-test-kit';
import { closeAll, messagesOf, startChat } from '../../../../test-support/main/chat-test-setup';
import { historyProblems } from '../../../../test-support/main/history-check';
import type { Scenario } from '../../../../test-support/scripted-api/scenario';
import type { EventOf } from '../../../shared/contract';
import { createWorkspaceTools } from '../../tools/workspace/index';

// A run that needs a person ends in the chat's awaiting state: nothing of it waits in memory, and
// the answer runs on from the chat's state by one path, with the hooks any call gets.

const dirs: string[] = [];
const apps: TestApp[] = [];
afterEach(async () => {
  await closeAll();
  for (const app of apps.splice(0)) await app.close();
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

const twoWrites: Scenario = {
  name: 'two-writes',
  turns: [
    {
      kind: 'tool_use',
      text: 'Writing both.',
      calls: [
        { name: 'write_file', id: 'toolu_A', input: { path: 'a.txt', content: 'A new\n' } },
        { name: 'write_file', id: 'toolu_B', input: { path: 'b.txt', content: 'B new\n' } },
      ],
    },
    { kind: 'text', text: 'Both written.' },
  ],
};

describe('a run ends at a question', () => {
  it('two calls in one message, each waiting for approval: no run is in the chat while either waits, and after both answers they ran in order', async () => {
    const ws = await mkdtemp(join(tmpdir(), 'waypoint-pause-'));
    dirs.push(ws);
    await writeFile(join(ws, 'a.txt'), 'A old\n');
    await writeFile(join(ws, 'b.txt'), 'B old\n');
    const { service, chats, recorder, session, server } = await startChat(twoWrites, { tools: createWorkspaceTools(ws) });
    const requested = (from: number) => recorder.waitFor((e) => e.type === 'approval_requested', 15_000, from) as Promise<EventOf<'approval_requested'>>;

    service.sendMessage(session.id, 'write both files');
    const first = await requested(0);
    expect(first.request.toolUseId).toBe('toolu_A');
    // The run that asked is over: the chat awaits the answer, and nothing holds a run slot.
    expect(service.isRunning(session.id)).toBe(false);
    expect(chats.getSession(session.id).runState).toEqual({ status: 'awaiting_approval', requestId: first.request.id });

    let mark = recorder.events.length;
    expect(service.answerApproval(session.id, first.request.id, 'approve')).toEqual({ accepted: true });
    const second = await requested(mark);
    expect(second.request.toolUseId).toBe('toolu_B');
    expect(service.isRunning(session.id)).toBe(false);
    // The first call ran after its answer; the second waits, unrun.
    expect(await readFile(join(ws, 'a.txt'), 'utf8')).toBe('A new\n');
    expect(await readFile(join(ws, 'b.txt'), 'utf8')).toBe('B old\n');
    expect(server.requests).toHaveLength(1);

    mark = recorder.events.length;
    expect(service.answerApproval(session.id, second.request.id, 'approve')).toEqual({ accepted: true });
    await recorder.idle(session.id, mark);
    expect(await readFile(join(ws, 'b.txt'), 'utf8')).toBe('B new\n');
    const history = messagesOf(server, 1);
    expect(historyProblems(history as never)).toEqual([]);
    expect((history[2]!.content as { tool_use_id: string; is_error?: boolean }[]).map((b) => [b.tool_use_id, b.is_error ?? false])).toEqual([
      ['toolu_A', false],
      ['toolu_B', false],
    ]);
    const cards = chats.getSession(session.id).transcript.filter((i) => i.kind === 'tool_call');
    expect(cards.map((c) => [c.toolUseId, c.status])).toEqual([
      ['toolu_A', 'done'],
      ['toolu_B', 'done'],
    ]);
    expect(chats.getSession(session.id).transcript.at(-1)).toMatchObject({ kind: 'assistant', text: 'Both written.' });
  });

  it('a question ends the run: Stop with none going closes it, as a Stop of a run does (the stopped notice)', async () => {
    const { service, chats, recorder, session } = await startChat({
      name: 'ask',
      turns: [{ kind: 'tool_use', calls: [{ name: 'ask_user', id: 'toolu_Q', input: { question: 'Which one?', options: ['X', 'Y'] } }] }],
    });
    service.sendMessage(session.id, 'pick');
    await recorder.waitFor((e) => e.type === 'question_requested');
    expect(service.isRunning(session.id)).toBe(false);
    const mark = recorder.events.length;
    expect(service.stop(session.id)).toEqual({ stopped: true });
    await recorder.idle(session.id, mark);
    expect(chats.getSession(session.id).pendingQuestion).toBeNull();
    expect(chats.getSession(session.id).transcript.at(-1)).toMatchObject({ kind: 'notice', code: 'stopped' });
  });
});

const planned: Scenario = {
  name: 'planned-write',
  turns: [
    { kind: 'tool_use', calls: [{ name: 'create_plan', input: { goal: 'Update notes', steps: [{ step_number: 1, description: 'Rewrite notes' }] } }] },
    { kind: 'tool_use', calls: [{ name: 'update_plan', input: { action: 'start_step', step_number: 1 } }] },
    { kind: 'tool_use', calls: [{ name: 'write_file', id: 'toolu_W', input: { path: 'notes.txt', content: 'rewritten\n' } }] },
    { kind: 'tool_use', calls: [{ name: 'update_plan', input: { action: 'complete_step', step_number: 1, result: 'rewritten' } }] },
    { kind: 'text', text: 'Done.' },
  ],
};

describe('an approval answered after a restart', () => {
  it('runs the held write with the hooks of any call: its checkpoint (Undo plan puts the file back) and its place on the step', async () => {
    const app = await startTestApp(planned, { files: { 'notes.txt': 'original\n' } });
    apps.push(app);
    const { id } = await app.call('newSession', {});
    const from = app.events.length;
    await app.call('sendMessage', { sessionId: id, text: 'rewrite the notes' });
    const { request } = (await app.waitFor((e) => e.type === 'approval_requested', from)) as EventOf<'approval_requested'>;
    expect(request.toolUseId).toBe('toolu_W');
    await app.restart();

    const mark = app.events.length;
    expect(await app.call('answerApproval', { sessionId: id, requestId: request.id, decision: 'approve' })).toEqual({ accepted: true });
    await app.idle(id, mark);
    expect(await readFile(join(app.workspace, 'notes.txt'), 'utf8')).toBe('rewritten\n');
    const { plan } = await app.call('getPlan', { sessionId: id });
    expect(plan!.steps[0]!.calls?.map((c) => c.tool)).toEqual(['write_file']);

    expect((await app.call('previewUndoPlan', { sessionId: id })).files.map((f) => f.path)).toEqual(['notes.txt']);
    await app.call('undoPlan', { sessionId: id, overwriteChangedOutside: false });
    expect(await readFile(join(app.workspace, 'notes.txt'), 'utf8')).toBe('original\n');
  });
});
