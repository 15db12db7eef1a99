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
  it('replaces that message and everything after it by a new version in place; the chat list gets no copy; each version sends only its own history', async () => {
    const { app, send, snapshot, userItem, rerun, shape } = await start({ name: 'echo', turns: [] });
    await send('first');
    await send('second');
    await send('third');
    const before = await snapshot();
    const second = await userItem('second');

    const out = await rerun('editMessage', { itemId: second.id, text: 'second, edited' });
    const after = await snapshot();
    expect(shape(after.transcript)).toEqual(['user: first', 'assistant: You said: first', 'user: second, edited', 'assistant: You said: second, edited']);
    expect(after.transcript[2]).toMatchObject({ id: out.itemId, version: { group: second.id, index: 1, count: 2 } });
    // What Claude got: the history up to the edited message, then the edited message. Nothing of the replaced turns.
    expect(sent(app, -1)).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'first' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'You said: first' }] },
      { role: 'user', content: [{ type: 'text', text: 'second, edited', cache_control: { type: 'ephemeral' } }] },
    ]);
    expect((await app.call('listSessions', {})).sessions.map((s) => s.title)).toEqual(['first']);

    // "Previous version": the chat shows the first version again, exactly as it was (the message says 1/2).
    await app.call('showVersion', { sessionId: after.session.id, itemId: out.itemId, of: 'message', index: 0 });
    const shown = await snapshot();
    expect(shown.transcript).toEqual(before.transcript.map((i) => (i.id === second.id ? { ...i, version: { group: second.id, index: 0, count: 2 } } : i)));
    // Going on in the version shown: Claude gets that version's history only.
    await send('fourth');
    expect(texts(sent(app, -1))).toEqual(['"text":"first"', '"text":"You said: first"', '"text":"second"', '"text":"You said: second"', '"text":"third"', '"text":"You said: third"', '"text":"fourth"']);
    // "Next version": the edited one, and then only its history.
    await app.call('showVersion', { sessionId: after.session.id, itemId: second.id, of: 'message', index: 1 });
    expect(shape((await snapshot()).transcript)).toEqual(shape(after.transcript));
    await send('fifth');
    expect(texts(sent(app, -1))).toEqual(['"text":"first"', '"text":"You said: first"', '"text":"second, edited"', '"text":"You said: second, edited"', '"text":"fifth"']);
    // And the first version kept what was added to it.
    await app.call('showVersion', { sessionId: after.session.id, itemId: out.itemId, of: 'message', index: 0 });
    expect(shape((await snapshot()).transcript).slice(-2)).toEqual(['user: fourth', 'assistant: You said: fourth']);
    expect((await app.call('listSessions', {})).sessions).toHaveLength(1);
    expect(app.api.invalid).toEqual([]);
  });

  it('a version of a version: editing the shown message again adds a third version of the same message', async () => {
    const { app, id, send, snapshot, userItem, rerun, shape } = await start({ name: 'echo', turns: [] });
    await send('one');
    const v2 = await rerun('editMessage', { itemId: (await userItem('one')).id, text: 'two' });
    const v3 = await rerun('editMessage', { itemId: v2.itemId, text: 'three' });
    expect((await snapshot()).transcript[0]).toMatchObject({ id: v3.itemId, version: { index: 2, count: 3 } });
    await app.call('showVersion', { sessionId: id, itemId: v3.itemId, of: 'message', index: 1 });
    expect(shape((await snapshot()).transcript)).toEqual(['user: two', 'assistant: You said: two']);
    expect((await snapshot()).transcript[0]).toMatchObject({ id: v2.itemId, version: { index: 1, count: 3 } });
    expect((await snapshot()).session.title).toBe('two');
    expect(app.api.invalid).toEqual([]);
  });

  it('search and Find in chat see the version shown only', async () => {
    const { app, id, send, userItem, rerun } = await start({ name: 'echo', turns: [] });
    await send('apples');
    const v2 = await rerun('editMessage', { itemId: (await userItem('apples')).id, text: 'pears' });
    const find = async (query: string) => (await app.call('findInChat', { sessionId: id, query })).total;
    const search = async (query: string) => (await app.call('searchSessions', { query })).results.length;
    expect([await find('apples'), await find('pears'), await search('apples'), await search('pears')]).toEqual([0, 2, 0, 1]);
    await app.call('showVersion', { sessionId: id, itemId: v2.itemId, of: 'message', index: 0 });
    expect([await find('apples'), await find('pears'), await search('apples'), await search('pears')]).toEqual([2, 0, 1, 0]);
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
    await expect(app.call('showVersion', { sessionId: id, itemId: hello.id, of: 'message', index: 0 })).rejects.toMatchObject({
      code: 'busy',
      message: 'Claude is working in this chat: press Stop first, then switch versions.',
    });
    await app.call('stop', { sessionId: id });
    await app.idle(id, from);
    const before = await snapshot();
    await expect(app.call('editMessage', { sessionId: id, itemId: 'nope', text: 'x' })).rejects.toMatchObject({ code: 'not_found' });
    await expect(app.call('editMessage', { sessionId: id, itemId: hello.id, text: '   ' })).rejects.toMatchObject({ code: 'invalid_input', message: /Message is empty/ });
    await expect(app.call('showVersion', { sessionId: id, itemId: hello.id, of: 'message', index: 1 })).rejects.toMatchObject({
      code: 'invalid_input',
      message: 'This message has only one version: there is no version 2.',
    });
    await expect(app.call('showVersion', { sessionId: id, itemId: hello.id, of: 'message', index: -1 } as never)).rejects.toMatchObject({ code: 'invalid_input' });
    expect((await snapshot()).transcript).toEqual(before.transcript);
    expect((await app.call('listSessions', {})).sessions).toHaveLength(1);
  });
});

describe('Retry reply', () => {
  it('asks again with the same last user message; the new reply is a new version of the reply, and each version goes on with its own', async () => {
    const { app, id, send, snapshot, rerun, shape } = await start({
      name: 'two tries',
      turns: [{ kind: 'text', text: 'First try.' }, { kind: 'text', text: 'Second try.' }, { kind: 'text', text: 'Noted.' }],
    });
    await send('Name three colours');
    const question = (await snapshot()).transcript[0]!;
    const out = await rerun('retryReply', {});
    expect(out.itemId).toBe(question.id);
    const after = await snapshot();
    expect(shape(after.transcript)).toEqual(['user: Name three colours', 'assistant: Second try.']);
    expect(after.transcript[0]).toMatchObject({ id: question.id, replies: { group: `${question.id}:reply`, index: 1, count: 2 } });
    expect(sent(app, 1)).toEqual(sent(app, 0));
    expect((await app.call('listSessions', {})).sessions).toHaveLength(1);

    await app.call('showVersion', { sessionId: id, itemId: question.id, of: 'reply', index: 0 });
    expect(shape((await snapshot()).transcript)).toEqual(['user: Name three colours', 'assistant: First try.']);
    expect((await snapshot()).transcript[0]).toMatchObject({ replies: { index: 0, count: 2 } });
    await send('Thanks');
    expect(texts(sent(app, -1))).toEqual(['"text":"Name three colours"', '"text":"First try."', '"text":"Thanks"']);
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

  it('is dropped from the shown version; the files it changed are put back first when asked, and the replaced version keeps the plan, marked undone', async () => {
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
    expect(out.itemId).not.toBe(message.id);
    expect(file(app, UNDO_EDITED)).toBe(UNDO_EDITED_TEXT);
    expect(existsSync(join(app.workspace, UNDO_CREATED))).toBe(false);
    const after = await snapshot();
    expect(after.plan).toBeNull();
    expect(after.session.planProgress).toBeUndefined();
    expect(after.transcript.some((i) => i.id.startsWith(`plan:${planBefore.id}`))).toBe(false);
    expect(after.transcript.find((i) => i.kind === 'rerun')).toMatchObject({ restored: [UNDO_CREATED, UNDO_EDITED].sort() });

    await app.call('showVersion', { sessionId: id, itemId: out.itemId, of: 'message', index: 0 });
    const first = await snapshot();
    expect(first.plan).toMatchObject({ id: planBefore.id, status: 'cancelled', undone: { deleted: [UNDO_CREATED], restored: [UNDO_EDITED] } });
    expect(first.session.planProgress).toMatchObject({ status: 'cancelled' });
    expect(first.transcript.filter((i) => i.kind === 'tool_call').map((i) => (i as { name: string }).name)).toEqual(['edit_file', 'write_file', 'edit_file']);
    // And back: the new version has no plan.
    await app.call('showVersion', { sessionId: id, itemId: message.id, of: 'message', index: 1 });
    expect((await snapshot()).plan).toBeNull();
    expect(app.api.invalid).toEqual([]);
  });

  it('left in place, its files are named, and "Undo plan" in the replaced version puts them back from its checkpoints', async () => {
    const { app, id, send, userItem, rerun, snapshot } = await start(recoveryUndoPlan, { files: UNDO_FILES, settings });
    await send('Prepare the 1.0 release');
    const out = await rerun('editMessage', { itemId: (await userItem('Prepare the 1.0 release')).id, text: 'Only the changelog, please' });
    expect(file(app, UNDO_EDITED)).toBe(UNDO_EDITED_AFTER);
    expect((await snapshot()).transcript.find((i) => i.kind === 'rerun')).toMatchObject({ changed: [UNDO_CREATED, UNDO_EDITED] });
    expect((await snapshot()).plan).toBeNull();
    expect((await app.call('previewUndoPlan', { sessionId: id })).files).toEqual([]);
    await app.call('showVersion', { sessionId: id, itemId: out.itemId, of: 'message', index: 0 });
    expect((await app.call('previewUndoPlan', { sessionId: id })).files.map((f) => f.path)).toEqual([UNDO_CREATED, UNDO_EDITED]);
    await app.call('undoPlan', { sessionId: id, overwriteChangedOutside: false });
    expect(file(app, UNDO_EDITED)).toBe(UNDO_EDITED_TEXT);
  });

  it('whose checkpoints cannot be read any more: the rerun still happens and says the files were not put back', async () => {
    const { app, id, send, userItem, rerun, snapshot } = await start(recoveryUndoPlan, { files: UNDO_FILES, settings });
    await send('Prepare the 1.0 release');
    // The saved contents are gone (a disk cleaned by hand): restoring the edited file fails.
    rmSync(join(app.dataDir, 'checkpoints', id, 'blobs'), { recursive: true, force: true });
    await rerun('editMessage', { itemId: (await userItem('Prepare the 1.0 release')).id, text: 'Only the changelog, please', restoreFiles: true });
    const after = await snapshot();
    expect(after.transcript.find((i) => i.kind === 'user')).toMatchObject({ text: 'Only the changelog, please' });
    expect(after.transcript.find((i) => i.kind === 'notice' && i.code === 'rerun_files')).toMatchObject({ level: 'warning', text: expect.stringContaining('could not be put back') });
    expect(file(app, UNDO_EDITED)).toBe(UNDO_EDITED_AFTER);
    expect((await app.call('listSessions', {})).sessions.map((s) => s.id)).toEqual([id]);
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

  it('are put back by Retry reply before the replaced reply is kept as a version: showing it again changes no file', async () => {
    const { app, id, snapshot, userItem, rerun } = await twoTurns();
    const polish = await userItem('Now polish them');
    await rerun('retryReply', { restoreFiles: true });
    expect((await snapshot()).transcript.find((i) => i.id === polish.id)).toMatchObject({ replies: { index: 1, count: 2 } });
    await app.call('showVersion', { sessionId: id, itemId: polish.id, of: 'reply', index: 0 });
    const shown = (await snapshot()).transcript;
    expect(shown.filter((i) => i.kind === 'assistant').map((i) => i.text)).toContain('NOTES.md is edited and draft.txt is there.');
    // The replaced reply was kept after its files were put back: it holds no marker of the put-back.
    expect(shown.some((i) => i.kind === 'rerun')).toBe(false);
    expect(file(app, RERUN_FILE)).toBe('# Notes\n\nWritten without a plan.\n');
    expect(existsSync(join(app.workspace, LOOSE_NEW_FILE))).toBe(false);
    // Its turn's checkpoints went with the put-back: nothing is offered twice.
    expect(await app.call('previewRerun', { sessionId: id, itemId: polish.id })).toEqual({ files: [], commands: 0 });
    expect(app.api.invalid).toEqual([]);
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
  it('the log replays the versions (append-only: a version kept, then the cut), both show as before, and each sends only its own history', async () => {
    const { app, id, send, snapshot, userItem, rerun, shape } = await start({ name: 'echo', turns: [] });
    await send('alpha');
    await send('beta');
    const log = join(app.dataDir, 'sessions', id, 'events.jsonl');
    const logBefore = readFileSync(log, 'utf8');
    const alpha = await userItem('alpha');
    const before = await snapshot();
    const out = await rerun('editMessage', { itemId: alpha.id, text: 'gamma' });
    const chatBefore = await snapshot();
    const logAfter = readFileSync(log, 'utf8');
    expect(logAfter.startsWith(logBefore)).toBe(true);
    const types = logAfter.slice(logBefore.length).split('\n').filter(Boolean).map((l) => (JSON.parse(l) as { type: string }).type);
    expect(types.indexOf('version')).toBeGreaterThanOrEqual(0);
    expect(types.indexOf('version')).toBeLessThan(types.indexOf('rewind'));

    await app.restart();
    const chat = await snapshot();
    expect(chat.transcript).toEqual(chatBefore.transcript);
    expect(shape(chat.transcript)).toEqual(['user: gamma', 'assistant: You said: gamma']);
    expect(chat.session.title).toBe('gamma');
    expect((await app.call('listSessions', {})).sessions).toHaveLength(1);
    await send('delta');
    expect(texts(sent(app, -1))).toEqual(['"text":"gamma"', '"text":"You said: gamma"', '"text":"delta"']);
    await app.call('showVersion', { sessionId: id, itemId: out.itemId, of: 'message', index: 0 });
    expect(shape((await snapshot()).transcript)).toEqual(shape(before.transcript));
    expect((await snapshot()).session.title).toBe('alpha');
    await app.restart();
    expect(shape((await snapshot()).transcript)).toEqual(shape(before.transcript));
    await send('epsilon');
    expect(texts(sent(app, -1))).toEqual(['"text":"alpha"', '"text":"You said: alpha"', '"text":"beta"', '"text":"You said: beta"', '"text":"epsilon"']);
    await app.call('showVersion', { sessionId: id, itemId: alpha.id, of: 'message', index: 1 });
    expect(shape((await snapshot()).transcript)).toEqual(['user: gamma', 'assistant: You said: gamma', 'user: delta', 'assistant: You said: delta']);
    expect(app.api.invalid).toEqual([]);
  });

  it('switching back and forth keeps each version once: no whole copy of the tail per click, and the version shown survives a restart', async () => {
    const { app, id, send, snapshot, userItem, rerun, shape } = await start({ name: 'echo', turns: [] });
    await send('alpha');
    for (const n of [1, 2, 3, 4, 5]) await send(`after alpha ${n}: ${'a long message '.repeat(40)}`);
    const alpha = await userItem('alpha');
    const out = await rerun('editMessage', { itemId: alpha.id, text: 'gamma' });
    const log = join(app.dataDir, 'sessions', id, 'events.jsonl');
    const records = () => readFileSync(log, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as { type: string });
    const versionsBefore = records().filter((r) => r.type === 'version').length;
    const clicks = 8;
    let itemId = out.itemId;
    for (let i = 0; i < clicks; i++) ({ itemId } = await app.call('showVersion', { sessionId: id, itemId, of: 'message', index: i % 2 === 0 ? 0 : 1 }));
    // The version first left (the new one) is kept once; every later switch only shows a version already kept, unchanged.
    expect(records().filter((r) => r.type === 'version').length - versionsBefore).toBe(1);

    const shown = await snapshot();
    expect(shape(shown.transcript)).toEqual(['user: gamma', 'assistant: You said: gamma']);
    await app.restart();
    expect((await snapshot()).transcript).toEqual(shown.transcript);
    await send('delta');
    expect(texts(sent(app, -1))).toEqual(['"text":"gamma"', '"text":"You said: gamma"', '"text":"delta"']);
    // And the long version, kept as shown before the restart, with its own history only.
    await app.call('showVersion', { sessionId: id, itemId, of: 'message', index: 0 });
    await app.restart();
    expect(shape((await snapshot()).transcript)).toHaveLength(12);
    await send('epsilon');
    expect(texts(sent(app, -1))).toHaveLength(13);
    expect(texts(sent(app, -1))?.at(0)).toBe('"text":"alpha"');
    expect(app.api.invalid).toEqual([]);
  });
});
