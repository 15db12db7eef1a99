import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../../test-support/main/app-test-kit';
import { historyProblems } from '../../../../test-support/main/history-check';
import { UNDO_CREATED, UNDO_EDITED, UNDO_EDITED_AFTER, UNDO_EDITED_TEXT, UNDO_FILES, recoveryUndoPlan } from '../../../../test-support/scenarios/recovery-patterns';
import { LOOSE_NEW_FILE, RERUN_FILE, RERUN_FILE_TEXT, rerunLoose } from '../../../../test-support/scenarios/reruns';
import type { Scenario } from '../../../../test-support/scripted-api/scenario';
import type { CallOutput } from '../../../shared/contract';
import type { TranscriptItem } from '../../../shared/transcript';
import type { WaypointEvent } from '../../../shared/contract';

// Edit message and Retry reply through the whole app (call router, loop, plans, recovery,
// session logs): real SDK against the scripted server, which refuses any invalid history.

const apps: TestApp[] = [];
afterEach(async () => {
  for (const app of apps.splice(0)) await app.close();
});

async function start(scenario: Scenario, options: Parameters<typeof startTestApp>[1] = {}) {
  const app = await startTestApp(scenario, options);
  apps.push(app);
  const { id } = await app.call('newSession', {});
  const send = async (text: string, sessionId = id) => {
    const from = app.events.length;
    await app.call('sendMessage', { sessionId, text });
    await app.idle(sessionId, from);
  };
  const snapshot = (sessionId = id) => app.call('getSession', { sessionId });
  const userItem = async (text: string, sessionId = id) => (await snapshot(sessionId)).transcript.find((i) => i.kind === 'user' && i.text === text)!;
  const rerun = async <N extends 'editMessage' | 'retryReply'>(name: N, input: Record<string, unknown>): Promise<CallOutput<N>> => {
    const from = app.events.length;
    const out = await app.call(name, { sessionId: id, ...input });
    await app.idle(id, from);
    return out;
  };
  const shape = (items: TranscriptItem[]) => items.map((i) => (i.kind === 'user' || i.kind === 'assistant' ? `${i.kind}: ${i.text}` : i.kind));
  return { app, id, send, snapshot, userItem, rerun, shape };
}

type Sent = { role: string; content: unknown };
const sent = (app: TestApp, i: number): Sent[] => (app.api.requests.at(i)!.body as { messages: Sent[] }).messages;
const texts = (messages: Sent[]) => JSON.stringify(messages).match(/"text":"[^"]*"/g);

describe('Edit message', () => {
  it('replaces that message and everything after it; the chat as it was is a new chat "… (earlier version)"', async () => {
    const { app, id, send, snapshot, userItem, rerun, shape } = await start({ name: 'echo', turns: [] });
    await send('first');
    await send('second');
    await send('third');
    const before = await snapshot();
    const second = await userItem('second');

    const out = await rerun('editMessage', { itemId: second.id, text: 'second, edited' });
    const after = await snapshot();
    expect(shape(after.transcript)).toEqual(['user: first', 'assistant: You said: first', 'rerun', 'user: second, edited', 'assistant: You said: second, edited']);
    expect(after.transcript.find((i) => i.kind === 'rerun')).toMatchObject({ how: 'edit', earlier: { chatId: out.earlierChatId, title: 'first (earlier version)' } });
    expect(out.itemId).toBe(after.transcript[3]!.id);
    // What Claude got: the history up to the edited message, then the edited message. Nothing of the replaced turns.
    expect(sent(app, -1)).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'first' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'You said: first' }] },
      { role: 'user', content: [{ type: 'text', text: 'second, edited', cache_control: { type: 'ephemeral' } }] },
    ]);
    expect(app.api.invalid).toEqual([]);

    const { sessions } = await app.call('listSessions', {});
    expect(sessions.map((s) => s.title).sort()).toEqual(['first', 'first (earlier version)']);
    const copy = await snapshot(out.earlierChatId);
    expect(copy.transcript).toEqual(before.transcript);
    expect(copy.session.title).toBe('first (earlier version)');
    // The earlier version is a chat like any other: it goes on from where it was.
    await send('fourth', out.earlierChatId);
    expect(texts(sent(app, -1))).toEqual(['"text":"first"', '"text":"You said: first"', '"text":"second"', '"text":"You said: second"', '"text":"third"', '"text":"You said: third"', '"text":"fourth"']);
    expect(app.api.invalid).toEqual([]);
    void id;
  });

  it('keeps the tool results the run left before a merged message, so the history stays valid', async () => {
    const { app, id, snapshot, userItem, rerun } = await start({ name: 'approval-then-stop', turns: [{ kind: 'tool_use', calls: [{ name: 'run_command', id: 'toolu_cmd', input: { command: 'echo hi' } }] }] });
    const from = app.events.length;
    await app.call('sendMessage', { sessionId: id, text: 'run it' });
    await app.waitFor((e) => e.type === 'approval_requested', from);
    await app.call('stop', { sessionId: id });
    await app.idle(id, from);
    const mark = app.events.length;
    await app.call('sendMessage', { sessionId: id, text: 'never mind' });
    await app.idle(id, mark);

    await rerun('editMessage', { itemId: (await userItem('never mind')).id, text: 'do nothing then' });
    const last = sent(app, -1);
    expect(historyProblems(last as never)).toEqual([]);
    expect(last).toHaveLength(3);
    expect(last[2]!.content).toEqual([
      expect.objectContaining({ type: 'tool_result', tool_use_id: 'toolu_cmd', is_error: true }),
      { type: 'text', text: 'do nothing then', cache_control: { type: 'ephemeral' } },
    ]);
    expect(app.api.invalid).toEqual([]);
    expect((await snapshot()).transcript.at(-1)).toMatchObject({ kind: 'assistant', text: 'You said: do nothing then' });
  });

  it('is refused while Claude works (stop first), for an unknown message, and for empty text; nothing changes', async () => {
    const { app, id, send, snapshot, userItem } = await start({ name: 'slow', turns: [{ kind: 'text', text: 'ok' }, { kind: 'text', text: 'slow reply' }], latencyMs: 0 });
    await send('hello');
    const hello = await userItem('hello');
    app.api.setScenario({ name: 'slow', turns: [{ kind: 'text', text: 'slow' }], latencyMs: 1_500 });
    const from = app.events.length;
    await app.call('sendMessage', { sessionId: id, text: 'again' });
    await expect(app.call('editMessage', { sessionId: id, itemId: hello.id, text: 'hello there' })).rejects.toMatchObject({
      code: 'busy',
      message: 'Claude is working in this chat: press Stop first, then edit a message.',
    });
    await expect(app.call('retryReply', { sessionId: id })).rejects.toMatchObject({ code: 'busy', message: /press Stop first, then retry the reply/ });
    await app.call('stop', { sessionId: id });
    await app.idle(id, from);
    const before = await snapshot();
    await expect(app.call('editMessage', { sessionId: id, itemId: 'nope', text: 'x' })).rejects.toMatchObject({ code: 'not_found' });
    await expect(app.call('editMessage', { sessionId: id, itemId: hello.id, text: '   ' })).rejects.toMatchObject({ code: 'invalid_input', message: /Message is empty/ });
    expect((await snapshot()).transcript).toEqual(before.transcript);
    expect((await app.call('listSessions', {})).sessions).toHaveLength(1);
  });
});

describe('Retry reply', () => {
  it('asks again with the same last user message; the new reply replaces the old one', async () => {
    const { app, send, snapshot, rerun, shape } = await start({ name: 'two tries', turns: [{ kind: 'text', text: 'First try.' }, { kind: 'text', text: 'Second try.' }] });
    await send('Name three colours');
    const out = await rerun('retryReply', {});
    expect(shape((await snapshot()).transcript)).toEqual(['rerun', 'user: Name three colours', 'assistant: Second try.']);
    expect(sent(app, 1)).toEqual(sent(app, 0));
    expect(shape((await snapshot(out.earlierChatId)).transcript)).toEqual(['user: Name three colours', 'assistant: First try.']);
    expect(app.api.invalid).toEqual([]);
  });

  it('is refused when there is no reply yet', async () => {
    const { app, id } = await start({ name: 'echo', turns: [] });
    await expect(app.call('retryReply', { sessionId: id })).rejects.toMatchObject({ code: 'invalid_input', message: 'There is no reply to retry yet: send a message first.' });
  });
});

describe('a plan made in the replaced turns', () => {
  const settings = { autoApproveEdits: true, retryDelayMs: 0 };
  const file = (app: TestApp, rel: string) => readFileSync(join(app.workspace, rel), 'utf8');

  it('is dropped; the files it changed are put back first when asked, and the earlier version keeps the plan, marked undone', async () => {
    const { app, id, send, snapshot, userItem, rerun } = await start(recoveryUndoPlan, { files: UNDO_FILES, settings });
    await send('Prepare the 1.0 release');
    expect(file(app, UNDO_EDITED)).toBe(UNDO_EDITED_AFTER);
    const message = await userItem('Prepare the 1.0 release');
    const preview = await app.call('previewRerun', { sessionId: id, itemId: message.id });
    expect(preview.files).toEqual([
      { path: UNDO_CREATED, action: 'delete', changedOutside: false },
      { path: UNDO_EDITED, action: 'restore', changedOutside: false },
    ]);
    const planBefore = (await snapshot()).plan!;

    const out = await rerun('editMessage', { itemId: message.id, text: 'Prepare the 1.0 release notes only', restoreFiles: true });
    expect(file(app, UNDO_EDITED)).toBe(UNDO_EDITED_TEXT);
    expect(existsSync(join(app.workspace, UNDO_CREATED))).toBe(false);
    const after = await snapshot();
    expect(after.plan).toBeNull();
    expect(after.session.planProgress).toBeUndefined();
    expect(after.transcript.some((i) => i.id.startsWith(`plan:${planBefore.id}`))).toBe(false);
    expect(after.transcript.find((i) => i.kind === 'rerun')).toMatchObject({ restored: [UNDO_CREATED, UNDO_EDITED].sort() });

    const copy = await snapshot(out.earlierChatId);
    expect(copy.plan).toMatchObject({ id: planBefore.id, status: 'cancelled', undone: { deleted: [UNDO_CREATED], restored: [UNDO_EDITED] } });
    expect(copy.transcript.filter((i) => i.kind === 'tool_call').map((i) => (i as { name: string }).name)).toEqual(['edit_file', 'write_file', 'edit_file']);
    expect(app.api.invalid).toEqual([]);
  });

  it('left in place, its files are named, and "Undo plan" in the earlier version puts them back from its checkpoints', async () => {
    const { app, id, send, userItem, rerun, snapshot } = await start(recoveryUndoPlan, { files: UNDO_FILES, settings });
    await send('Prepare the 1.0 release');
    const out = await rerun('editMessage', { itemId: (await userItem('Prepare the 1.0 release')).id, text: 'Only the changelog, please' });
    expect(file(app, UNDO_EDITED)).toBe(UNDO_EDITED_AFTER);
    expect((await snapshot()).transcript.find((i) => i.kind === 'rerun')).toMatchObject({ changed: [UNDO_CREATED, UNDO_EDITED] });
    expect((await snapshot()).plan).toBeNull();
    const copy = out.earlierChatId;
    expect((await app.call('previewUndoPlan', { sessionId: copy })).files.map((f) => f.path)).toEqual([UNDO_CREATED, UNDO_EDITED]);
    await app.call('undoPlan', { sessionId: copy, overwriteChangedOutside: false });
    expect(file(app, UNDO_EDITED)).toBe(UNDO_EDITED_TEXT);
    void id;
  });

  it('whose checkpoints cannot be read any more: the rerun still happens and says the files were not put back', async () => {
    const { app, id, send, userItem, rerun, snapshot } = await start(recoveryUndoPlan, { files: UNDO_FILES, settings });
    await send('Prepare the 1.0 release');
    // The saved contents are gone (a disk cleaned by hand): restoring the edited file fails.
    rmSync(join(app.dataDir, 'checkpoints', id, 'blobs'), { recursive: true, force: true });
    const out = await rerun('editMessage', { itemId: (await userItem('Prepare the 1.0 release')).id, text: 'Only the changelog, please', restoreFiles: true });
    const after = await snapshot();
    expect(after.transcript.find((i) => i.kind === 'user')).toMatchObject({ text: 'Only the changelog, please' });
    expect(after.transcript.find((i) => i.kind === 'notice' && i.code === 'rerun_files')).toMatchObject({ level: 'warning', text: expect.stringContaining('could not be put back') });
    expect(file(app, UNDO_EDITED)).toBe(UNDO_EDITED_AFTER);
    expect((await app.call('listSessions', {})).sessions.map((s) => s.id)).toContain(out.earlierChatId);
    expect(app.api.invalid).toEqual([]);
  });

  it('made before the edited message, stays', async () => {
    const { app, send, snapshot, userItem, rerun } = await start({ ...recoveryUndoPlan, onExhausted: 'echo' }, { files: UNDO_FILES, settings });
    await send('Prepare the 1.0 release');
    const plan = (await snapshot()).plan!;
    await send('How is it going?');
    await rerun('editMessage', { itemId: (await userItem('How is it going?')).id, text: 'What is left?' });
    expect((await snapshot()).plan).toMatchObject({ id: plan.id, version: plan.version });
    expect(file(app, UNDO_EDITED)).toBe(UNDO_EDITED_AFTER);
  });
});

describe('file changes made outside any plan', () => {
  const settings = { autoApproveEdits: true, autoApproveCommands: true, retryDelayMs: 0 };
  const files = { [RERUN_FILE]: RERUN_FILE_TEXT };
  const file = (app: TestApp, rel: string) => readFileSync(join(app.workspace, rel), 'utf8');
  const twoTurns = async () => {
    const started = await start(rerunLoose, { files, settings });
    await started.send('Write the notes');
    await started.send('Now polish them');
    expect(file(started.app, RERUN_FILE)).toContain('Rewritten in the second turn.');
    expect(file(started.app, LOOSE_NEW_FILE)).toBe('a draft\n');
    return started;
  };

  it('are offered per turn: from a message on, each file as it was before those turns, and the commands they ran', async () => {
    const { app, id, userItem } = await twoTurns();
    const fromFirst = await app.call('previewRerun', { sessionId: id, itemId: (await userItem('Write the notes')).id });
    expect(fromFirst).toEqual({
      files: [
        { path: RERUN_FILE, action: 'restore', changedOutside: false },
        { path: LOOSE_NEW_FILE, action: 'delete', changedOutside: false },
      ].sort((a, b) => a.path.localeCompare(b.path)),
      commands: 1,
    });
    const fromSecond = await app.call('previewRerun', { sessionId: id, itemId: (await userItem('Now polish them')).id });
    expect(fromSecond.commands).toBe(0);
    expect(fromSecond.files.map((f) => f.path).sort()).toEqual([LOOSE_NEW_FILE, RERUN_FILE].sort());
  });

  it('are put back by Save and rerun when asked: the edited turn and every later one, nothing earlier', async () => {
    const { app, snapshot, userItem, rerun } = await twoTurns();
    await rerun('editMessage', { itemId: (await userItem('Now polish them')).id, text: 'Leave them as they are', restoreFiles: true });
    // As the first turn left them: NOTES.md as written there, draft.txt (made in the second) gone.
    expect(file(app, RERUN_FILE)).toBe('# Notes\n\nWritten without a plan.\n');
    expect(existsSync(join(app.workspace, LOOSE_NEW_FILE))).toBe(false);
    expect((await snapshot()).transcript.find((i) => i.kind === 'rerun')).toMatchObject({ restored: [LOOSE_NEW_FILE, RERUN_FILE].sort() });

    await rerun('editMessage', { itemId: (await userItem('Write the notes')).id, text: 'Start again', restoreFiles: true });
    expect(file(app, RERUN_FILE)).toBe(RERUN_FILE_TEXT);
    expect(app.api.invalid).toEqual([]);
  });

  it('stay when not asked, and are named in the marker', async () => {
    const { app, snapshot, userItem, rerun } = await twoTurns();
    await rerun('editMessage', { itemId: (await userItem('Write the notes')).id, text: 'Start again' });
    expect(file(app, RERUN_FILE)).toContain('Rewritten in the second turn.');
    expect((await snapshot()).transcript.find((i) => i.kind === 'rerun')).toMatchObject({ changed: [LOOSE_NEW_FILE, RERUN_FILE] });
  });

  it('are put back by Retry reply when asked: only the last turn', async () => {
    const { app, rerun } = await twoTurns();
    await rerun('retryReply', { restoreFiles: true });
    expect(file(app, RERUN_FILE)).toBe('# Notes\n\nWritten without a plan.\n');
    expect(existsSync(join(app.workspace, LOOSE_NEW_FILE))).toBe(false);
  });

  it('an edit the user approved (not auto-approved) is put back too, also when approved after a restart', async () => {
    for (const restart of [false, true]) {
      const { app, id, userItem } = await start(rerunLoose, { files, settings: { retryDelayMs: 0, autoApproveCommands: true } });
      const from = app.events.length;
      await app.call('sendMessage', { sessionId: id, text: 'Write the notes' });
      const asked = (await app.waitFor((e) => e.type === 'approval_requested', from)) as Extract<WaypointEvent, { type: 'approval_requested' }>;
      if (restart) await app.restart();
      const answered = app.events.length;
      await app.call('answerApproval', { sessionId: id, requestId: asked.request.id, decision: 'approve' });
      await app.idle(id, answered);
      expect(file(app, RERUN_FILE), `restart: ${restart}`).toBe('# Notes\n\nWritten without a plan.\n');
      const message = await userItem('Write the notes');
      expect((await app.call('previewRerun', { sessionId: id, itemId: message.id })).files, `restart: ${restart}`).toEqual([{ path: RERUN_FILE, action: 'restore', changedOutside: false }]);
      // Put back before the call returns (the rerun's own run then waits on its next approval).
      await app.call('editMessage', { sessionId: id, itemId: message.id, text: 'Nothing yet', restoreFiles: true });
      expect(file(app, RERUN_FILE), `restart: ${restart}`).toBe(RERUN_FILE_TEXT);
    }
  });

  it('a file changed outside Waypoint since is left alone and named', async () => {
    const { app, id, snapshot, userItem, rerun } = await twoTurns();
    writeFileSync(join(app.workspace, LOOSE_NEW_FILE), 'the user typed this\n');
    const message = await userItem('Now polish them');
    expect((await app.call('previewRerun', { sessionId: id, itemId: message.id })).files).toContainEqual({ path: LOOSE_NEW_FILE, action: 'delete', changedOutside: true });
    await rerun('editMessage', { itemId: message.id, text: 'Leave them as they are', restoreFiles: true });
    expect(file(app, LOOSE_NEW_FILE)).toBe('the user typed this\n');
    expect(file(app, RERUN_FILE)).toBe('# Notes\n\nWritten without a plan.\n');
    expect((await snapshot()).transcript.find((i) => i.kind === 'rerun')).toMatchObject({ restored: [RERUN_FILE], changed: [LOOSE_NEW_FILE] });
  });
});

describe('after a restart', () => {
  it('the log replays the cut (append-only, a rewind record), the earlier version is there whole, and the next request is valid', async () => {
    const { app, id, send, snapshot, userItem, rerun, shape } = await start({ name: 'echo', turns: [] });
    await send('alpha');
    await send('beta');
    const log = join(app.dataDir, 'sessions', id, 'events.jsonl');
    const logBefore = readFileSync(log, 'utf8');
    const out = await rerun('editMessage', { itemId: (await userItem('alpha')).id, text: 'gamma' });
    const chatBefore = await snapshot();
    const copyBefore = await snapshot(out.earlierChatId);
    const logAfter = readFileSync(log, 'utf8');
    expect(logAfter.startsWith(logBefore)).toBe(true);
    expect(logAfter.slice(logBefore.length).split('\n').filter(Boolean).map((l) => (JSON.parse(l) as { type: string }).type)).toContain('rewind');

    await app.restart();
    const chat = await snapshot();
    expect(shape(chat.transcript)).toEqual(shape(chatBefore.transcript));
    expect(shape(chat.transcript)).toEqual(['rerun', 'user: gamma', 'assistant: You said: gamma']);
    expect(chat.session.title).toBe('gamma');
    expect((await snapshot(out.earlierChatId)).transcript).toEqual(copyBefore.transcript);
    await send('delta');
    expect(texts(sent(app, -1))).toEqual(['"text":"gamma"', '"text":"You said: gamma"', '"text":"delta"']);
    await send('epsilon', out.earlierChatId);
    expect(texts(sent(app, -1))).toEqual(['"text":"alpha"', '"text":"You said: alpha"', '"text":"beta"', '"text":"You said: beta"', '"text":"epsilon"']);
    expect(app.api.invalid).toEqual([]);
  });
});
