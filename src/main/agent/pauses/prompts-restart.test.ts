import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../../test-support/main/app-test-kit';
import { historyProblems } from '../../../../test-support/main/history-check';
import { askChoice, QUESTION } from '../../../../test-support/scenarios/questions';
import type { Scenario } from '../../../../test-support/scripted-api/scenario';
import type { EventOf } from '../../../shared/contract';
import { QUESTION_CANCELLED } from '../../tools/ask-user';

// Questions from Claude and scoped approvals across a restart of the whole app (the chat logs
// and settings.json on disk are all that carries over).

const apps: TestApp[] = [];
afterEach(async () => {
  for (const app of apps.splice(0)) await app.close();
});

async function start(scenario: Scenario) {
  const app = await startTestApp(scenario);
  apps.push(app);
  const { id } = await app.call('newSession', {});
  return { app, id };
}

type Sent = { role: string; content: unknown };
const sent = (app: TestApp, i: number): Sent[] => (app.api.requests.at(i)!.body as { messages: Sent[] }).messages;

describe('a question from Claude pending at a restart', () => {
  it('is asked again after it (Stop still offered), and the answer goes back verbatim as the tool result', async () => {
    const { app, id } = await start(askChoice);
    const from = app.events.length;
    await app.call('sendMessage', { sessionId: id, text: 'Set up the app' });
    const { request } = (await app.waitFor((e) => e.type === 'question_requested', from)) as EventOf<'question_requested'>;
    await app.restart();

    const restored = await app.call('getSession', { sessionId: id });
    expect(restored.pendingQuestion).toEqual(request);
    expect(restored.runState).toEqual({ status: 'awaiting_question', requestId: request.id });
    await expect(app.call('sendMessage', { sessionId: id, text: 'hello?' })).rejects.toMatchObject({ code: 'busy', message: `Claude asked you: "${QUESTION}". Answer it first, or press Stop to cancel the question.` });

    const mark = app.events.length;
    expect(await app.call('answerQuestion', { sessionId: id, requestId: request.id, answer: 'PostgreSQL' })).toEqual({ accepted: true });
    expect(await app.call('answerQuestion', { sessionId: id, requestId: request.id, answer: 'SQLite' })).toEqual({ accepted: false });
    await app.idle(id, mark);
    const history = sent(app, -1);
    expect(historyProblems(history as never)).toEqual([]);
    expect(history[2]!.content).toEqual([{ type: 'tool_result', tool_use_id: 'toolu_ask', content: 'PostgreSQL', cache_control: { type: 'ephemeral' } }]);
    const after = await app.call('getSession', { sessionId: id });
    expect(after.pendingQuestion).toBeNull();
    expect(after.transcript.find((i) => i.kind === 'tool_call')).toMatchObject({ name: 'ask_user', status: 'done', result: 'PostgreSQL' });
    expect(after.transcript.at(-1)).toMatchObject({ kind: 'assistant', text: 'Thanks, I will set it up that way.' });
    expect(app.api.invalid).toEqual([]);
  });

  it('Stop after the restart closes it as cancelled; nothing is sent until the user writes again', async () => {
    const { app, id } = await start(askChoice);
    const from = app.events.length;
    await app.call('sendMessage', { sessionId: id, text: 'Set up the app' });
    const { request } = (await app.waitFor((e) => e.type === 'question_requested', from)) as EventOf<'question_requested'>;
    await app.restart();

    expect(await app.call('stop', { sessionId: id })).toEqual({ stopped: true });
    const stopped = await app.call('getSession', { sessionId: id });
    expect(stopped.pendingQuestion).toBeNull();
    expect(stopped.runState).toEqual({ status: 'idle' });
    expect(stopped.transcript.find((i) => i.kind === 'tool_call')).toMatchObject({ status: 'error', result: QUESTION_CANCELLED });
    expect(await app.call('answerQuestion', { sessionId: id, requestId: request.id, answer: 'SQLite' })).toEqual({ accepted: false });
    expect(app.api.requests).toHaveLength(1);

    // And that is in the log too: after another restart nothing waits.
    await app.restart();
    expect((await app.call('getSession', { sessionId: id })).pendingQuestion).toBeNull();
    const mark = app.events.length;
    await app.call('sendMessage', { sessionId: id, text: 'Pick one yourself' });
    await app.idle(id, mark);
    const history = sent(app, -1);
    expect(history[2]!.content).toEqual([
      { type: 'tool_result', tool_use_id: 'toolu_ask', content: QUESTION_CANCELLED, is_error: true },
      { type: 'text', text: 'Pick one yourself', cache_control: { type: 'ephemeral' } },
    ]);
    expect(app.api.invalid).toEqual([]);
  });
});

describe('scoped approvals across a restart', () => {
  const run = { kind: 'tool_use' as const, calls: [{ name: 'run_command', input: { command: 'echo kept' } }] };
  const said = (text: string) => ({ kind: 'text' as const, text });

  it('"Approve for this chat" holds in that chat after a restart, and never in another chat', async () => {
    const { app, id } = await start({ name: 'kept', turns: [run, said('one'), run, said('two'), run, said('three')] });
    let from = app.events.length;
    await app.call('sendMessage', { sessionId: id, text: 'run it' });
    const first = (await app.waitFor((e) => e.type === 'approval_requested', from)) as EventOf<'approval_requested'>;
    await app.call('answerApproval', { sessionId: id, requestId: first.request.id, decision: 'approve_chat' });
    await app.idle(id, from);
    await app.restart();

    from = app.events.length;
    await app.call('sendMessage', { sessionId: id, text: 'again' });
    await app.idle(id, from);
    expect(app.events.slice(from).some((e) => e.type === 'approval_requested')).toBe(false);

    const other = await app.call('newSession', {});
    from = app.events.length;
    await app.call('sendMessage', { sessionId: other.id, text: 'run it here' });
    const asked = (await app.waitFor((e) => e.type === 'approval_requested', from)) as EventOf<'approval_requested'>;
    expect(asked.sessionId).toBe(other.id);
    await app.call('answerApproval', { sessionId: other.id, requestId: asked.request.id, decision: 'approve_always' });
    await app.idle(other.id, from);

    // "Always approve" is a saved rule in settings.json; the auto-approve switches stay off.
    const saved = JSON.parse(readFileSync(join(app.dataDir, 'settings.json'), 'utf8')) as Record<string, unknown>;
    expect(saved).toMatchObject({ autoApproveCommands: false, autoApproveEdits: false, approvalRules: [expect.objectContaining({ tool: 'run_command', pattern: 'echo kept', effect: 'allow' })] });
    const { settings } = await app.call('getSettings', {});
    expect(settings.approvalRules).toHaveLength(1);
    await app.call('removeApprovalRule', { id: settings.approvalRules[0]!.id });
    expect((await app.call('getSettings', {})).settings.approvalRules).toEqual([]);
    await expect(app.call('removeApprovalRule', { id: settings.approvalRules[0]!.id })).rejects.toMatchObject({ code: 'not_found' });
  });
});

describe('a protected change pending at a restart', () => {
  it('comes back with its reason and no scope: a scoped answer is still refused, Approve writes it', async () => {
    const app = await startTestApp(
      { name: 'git-restart', turns: [{ kind: 'tool_use', calls: [{ name: 'write_file', input: { path: '.git/config', content: '[diff]\n\texternal = /tmp/x\n' } }] }, { kind: 'text', text: 'Set.' }] },
      { settings: { autoApproveEdits: true } },
    );
    apps.push(app);
    mkdirSync(join(app.workspace, '.git'));
    writeFileSync(join(app.workspace, '.git', 'config'), '[core]\n');
    const { id } = await app.call('newSession', {});
    const from = app.events.length;
    await app.call('sendMessage', { sessionId: id, text: 'set a diff tool' });
    const { request } = (await app.waitFor((e) => e.type === 'approval_requested', from)) as EventOf<'approval_requested'>;
    expect(request).toMatchObject({ scope: null, protected: expect.stringMatching(/git's configuration/) });
    await app.restart();

    const restored = await app.call('getSession', { sessionId: id });
    expect(restored.pendingApproval).toEqual(request);
    await expect(app.call('answerApproval', { sessionId: id, requestId: request.id, decision: 'approve_always' })).rejects.toMatchObject({ message: expect.stringMatching(/can only be approved once/) });
    const mark = app.events.length;
    expect(await app.call('answerApproval', { sessionId: id, requestId: request.id, decision: 'approve' })).toEqual({ accepted: true });
    await app.idle(id, mark);
    expect(readFileSync(join(app.workspace, '.git', 'config'), 'utf8')).toBe('[diff]\n\texternal = /tmp/x\n');
    expect((await app.call('getSettings', {})).settings.approvalRules).toEqual([]);
  });
});
