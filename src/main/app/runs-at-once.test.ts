import { existsSync, readFileSync, statSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { WaypointEvent } from '../../shared/contract';
import type { SessionSummary } from '../../shared/transcript';
import { startTestApp, type TestApp } from '../../../test-support/main/app-test-kit';
import type { Scenario } from '../../../test-support/scripted-api/scenario';

/**
 * Issue 24, Settings "Runs at once": the whole app (createServices) with the real SDK against the
 * scripted server, whose gated requests wait until the test lets each through, so several chats
 * run at once and the test says when each reply comes.
 */
let app: TestApp | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

async function start(runsAtOnce: number): Promise<TestApp> {
  app = await startTestApp({ name: 'runs at once', turns: [], gated: true }, { settings: { runsAtOnce } });
  return app;
}

/** The last user text of each request the server got, in order: which chat's run asked when. */
function asked(app: TestApp): string[] {
  return app.api.requests.map(({ body }) => {
    const messages = (body as { messages: { role: string; content: string | { type: string; text?: string }[] }[] }).messages;
    const last = messages.filter((m) => m.role === 'user').at(-1)!.content;
    return typeof last === 'string' ? last : last.filter((b) => b.type === 'text').map((b) => b.text).join('');
  });
}

async function until(what: string, check: () => boolean | Promise<boolean>): Promise<void> {
  for (const deadline = Date.now() + 15_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 10))) if (await check()) return;
  throw new Error(`waited 15 s for ${what}`);
}

const summaryOf = async (app: TestApp, id: string): Promise<SessionSummary | undefined> =>
  (await app.call('listSessions', {})).sessions.find((s) => s.id === id);
const runOf = async (app: TestApp, id: string) => (await app.call('getSession', { sessionId: id })).runState.status;
const endedIn = (app: TestApp, id: string, from: number) => app.events.slice(from).some((e: WaypointEvent) => e.type === 'run_state' && e.sessionId === id && e.state.status === 'idle');

/** A new chat and its first message (New chat hands back an empty chat until it has one). */
async function sendInNewChat(app: TestApp, text: string): Promise<string> {
  const { id } = await app.call('newSession', {});
  await app.call('sendMessage', { sessionId: id, text });
  return id;
}

/** A chat whose first message ("C1", the app's first request) has been answered and whose run ended. */
async function finishedChat(app: TestApp, text: string): Promise<string> {
  const chat = await sendInNewChat(app, text);
  await until(`${text} to ask Claude`, () => asked(app).length === 1);
  await app.api.release();
  await until(`${text} to end`, () => endedIn(app, chat, 0));
  return chat;
}

describe('Runs at once', () => {
  it('with 2, a third and a fourth chat queue, start in the order sent as runs end, and Stop unqueues keeping the message unsent', async () => {
    const app = await start(2);
    // newSession reuses an empty chat only when asked to; messages make them non-empty anyway.
    await sendInNewChat(app, 'A');
    await sendInNewChat(app, 'B');
    await until('A and B to ask Claude', () => asked(app).length === 2);
    const from = app.events.length;
    const c = await sendInNewChat(app, 'C');
    const d = await sendInNewChat(app, 'D');
    const e = await sendInNewChat(app, 'E');
    const queued = await Promise.all([c, d, e].map(async (id) => (await summaryOf(app, id))?.queued));
    expect(queued.every((t) => typeof t === 'number')).toBe(true);
    expect(queued).toEqual([...queued].sort((x, y) => x! - y!));
    expect(await runOf(app, c)).toBe('idle');
    // A second message to a queued chat joins the first: still one place in the queue.
    await app.call('sendMessage', { sessionId: c, text: 'C again' });
    expect((await summaryOf(app, c))?.queued).toBe(queued[0]);

    // Stop on a queued chat takes it off the queue; its message stays, unsent.
    expect(await app.call('stop', { sessionId: e })).toEqual({ stopped: true });
    expect((await summaryOf(app, e))?.queued).toBeUndefined();
    expect((await app.call('getSession', { sessionId: e })).transcript).toMatchObject([
      { kind: 'user', text: 'E' },
      { kind: 'notice', level: 'info', code: 'unqueued', text: 'Taken off the queue: your message was not sent. Send another message to go on; it goes with this one.' },
    ]);

    await app.api.release(); // the first reply (A's or B's): C takes its slot
    await until('C to ask Claude', () => asked(app).length === 3);
    expect((await summaryOf(app, c))?.queued).toBeUndefined();
    expect((await summaryOf(app, d))?.queued).toBe(queued[1]);
    await app.api.release(); // the other one's reply: D starts
    await until('D to ask Claude', () => asked(app).length === 4);
    await app.api.release(2);
    await until('C and D to end', () => endedIn(app, c, from) && endedIn(app, d, from));
    // Nothing more asked: E was unqueued, and none ran twice.
    await new Promise((r) => setTimeout(r, 200));
    // A and B run at once, so either may reach the server first; C and D start in the order queued.
    expect(asked(app).slice(0, 2).sort()).toEqual(['A', 'B']);
    expect(asked(app).slice(2)).toEqual(['CC again', 'D']);
    expect(await summaryOf(app, e)).not.toHaveProperty('queued');
  }, 60_000);

  it('refuses a number of runs outside 1–16 (or not whole) in words and changes nothing; 16 is kept', async () => {
    const app = await start(2);
    const before = await app.call('getSettings', {});
    const saved = readFileSync(join(app.dataDir, 'settings.json'), 'utf8');
    const from = app.events.length;
    for (const runsAtOnce of [0, 17, 2.5, -1]) {
      const refused = await app.router('setSettings', { patch: { runsAtOnce } });
      expect(refused, String(runsAtOnce)).toMatchObject({ ok: false, error: { code: 'invalid_input', message: expect.stringContaining('runsAtOnce') as string } });
    }
    expect(await app.call('getSettings', {})).toEqual(before);
    expect(readFileSync(join(app.dataDir, 'settings.json'), 'utf8')).toBe(saved);
    expect(app.events.slice(from).filter((e) => e.type === 'settings_updated')).toEqual([]);
    expect((await app.call('setSettings', { patch: { runsAtOnce: 16 } })).settings.runsAtOnce).toBe(16);
  });

  it('keeps the queue over a restart: still queued, in order, and each starts when a run ends', async () => {
    const app = await start(1);
    await sendInNewChat(app, 'A');
    await until('A to ask Claude', () => asked(app).length === 1);
    const c = await sendInNewChat(app, 'C');
    const b = await sendInNewChat(app, 'B');
    await app.restart();
    // A's run ended with the app; C (sent first) takes the one slot, B waits its turn.
    await until('C to ask Claude after the restart', () => asked(app).length === 2);
    expect(asked(app)).toEqual(['A', 'C']);
    expect((await summaryOf(app, c))?.queued).toBeUndefined();
    expect(typeof (await summaryOf(app, b))?.queued).toBe('number');
    expect(await runOf(app, b)).toBe('idle');
    const from = app.events.length;
    // A's request, cut by the restart, still holds the gate's first place; C's reply is the next.
    await app.api.release(2);
    await until('B to ask Claude', () => asked(app).length === 3);
    expect(asked(app)).toEqual(['A', 'C', 'B']);
    await app.api.release();
    await until('B to end', () => endedIn(app, b, from));
    expect((await summaryOf(app, b))?.queued).toBeUndefined();
  }, 60_000);

  it('a run that ends waiting for a person frees its slot: with 1, a chat asking for an approval lets the queued chat start, and the answer goes on at once', async () => {
    app = await startTestApp({ name: 'asks', gated: true, turns: [{ kind: 'tool_use', calls: [{ name: 'write_file', input: { path: 'a.txt', content: 'x' } }] }] }, { settings: { runsAtOnce: 1 } });
    const a = await sendInNewChat(app, 'A');
    await until('A to ask Claude', () => asked(app!).length === 1);
    const b = await sendInNewChat(app, 'B');
    expect(typeof (await summaryOf(app, b))?.queued).toBe('number');
    await app.api.release(); // A's reply: write_file, which asks the person first
    await until('A to wait for its approval, and B to ask Claude', async () => (await app!.call('getSession', { sessionId: a })).pendingApproval != null && asked(app!).length === 2);
    expect(asked(app)).toEqual(['A', 'B']);
    expect((await summaryOf(app, b))?.queued).toBeUndefined();
    // The list says who is waiting for the person and who works.
    const listed = (await app.call('listSessions', {})).sessions;
    expect(listed.find((s) => s.id === a)?.run).toBe('needs-you');
    expect(listed.find((s) => s.id === b)?.run).toBe('working');
    // The answer is not a new message: A's run goes on at once, over the cap, while B still runs.
    const requestId = (await app.call('getSession', { sessionId: a })).pendingApproval!.id;
    expect(await app.call('answerApproval', { sessionId: a, requestId, decision: 'approve' })).toEqual({ accepted: true });
    await until('A to go on after the answer', () => asked(app!).length === 3);
    expect(await runOf(app, b)).not.toBe('idle');
    expect((await summaryOf(app, a))?.queued).toBeUndefined();
  }, 60_000);

  it('refuses Edit message, Retry reply and another version on a queued chat, so the queue starts it once', async () => {
    const app = await start(1);
    const c = await finishedChat(app, 'C1');
    await sendInNewChat(app, 'A');
    await until('A to ask Claude', () => asked(app).length === 2);
    await app.call('sendMessage', { sessionId: c, text: 'C2' });
    expect(typeof (await summaryOf(app, c))?.queued).toBe('number');
    const first = (await app.call('getSession', { sessionId: c })).transcript.find((i) => i.kind === 'user')!;
    const queuedWords = /This chat is queued: press Stop to take it off the queue first, then/;
    await expect(app.call('editMessage', { sessionId: c, itemId: first.id, text: 'C1 edited' })).rejects.toMatchObject({ code: 'busy', message: expect.stringMatching(queuedWords) });
    await expect(app.call('retryReply', { sessionId: c })).rejects.toMatchObject({ code: 'busy', message: expect.stringMatching(queuedWords) });
    await expect(app.call('showVersion', { sessionId: c, itemId: first.id, of: 'message', index: 0 })).rejects.toMatchObject({ code: 'busy', message: expect.stringMatching(queuedWords) });
    expect(asked(app)).toEqual(['C1', 'A']);
    expect(await runOf(app, c)).toBe('idle');
    const from = app.events.length;
    await app.api.release(); // A's reply: C's queued message goes, once
    await until('C2 to ask Claude', () => asked(app).length === 3);
    await app.api.release();
    await until('C to end', () => endedIn(app, c, from));
    await new Promise((r) => setTimeout(r, 200));
    expect(asked(app)).toEqual(['C1', 'A', 'C2']);
  }, 60_000);

  it('a run started outside the queue drops a stale ticket, so a restart does not run the chat again', async () => {
    const app = await start(1);
    const c = await finishedChat(app, 'C1');
    const session = app.services.chats.registry.require(c);
    // A ticket left in the summary (as by a process that quit before its queue started the chat).
    app.services.chats.registry.publish(session, { type: 'session_updated', session: { ...session.summary, queued: 7 } });
    const from = app.events.length;
    await app.call('sendMessage', { sessionId: c, text: 'C2' });
    await until('C2 to ask Claude', () => asked(app).length === 2);
    expect((await summaryOf(app, c))?.queued).toBeUndefined();
    await app.api.release();
    await until('C2 to end', () => endedIn(app, c, from));
    await app.restart();
    await new Promise((r) => setTimeout(r, 300));
    expect(asked(app)).toEqual(['C1', 'C2']);
  }, 60_000);

  it('never stops a run when the user opens or starts another chat', async () => {
    const app = await start(4);
    const from = app.events.length;
    const a = await sendInNewChat(app, 'A');
    await until('A to ask Claude', () => asked(app).length === 1);
    // Leaving A: a new chat started and opened, a message there.
    const { id: b } = await app.call('newSession', {});
    await app.call('getSession', { sessionId: b });
    await app.call('sendMessage', { sessionId: b, text: 'B' });
    await until('B to ask Claude', () => asked(app).length === 2);
    expect(await runOf(app, a)).not.toBe('idle');
    await app.api.release(2);
    await until('A to end', () => endedIn(app, a, from));
    const transcript = (await app.call('getSession', { sessionId: a })).transcript;
    expect(transcript.at(-1)).toMatchObject({ kind: 'assistant', text: 'You said: A' });
  }, 60_000);

  it('a chat deleted while it runs or waits in the queue stops first and leaves nothing behind: no log, no checkpoint, no index row', async () => {
    // A's first reply writes a file (approved by the setting), so A has a turn checkpoint when it is deleted mid-run.
    const writes: Scenario = { name: 'writes, then echoes', gated: true, onExhausted: 'echo', turns: [{ kind: 'tool_use', calls: [{ name: 'write_file', input: { path: 'a.txt', content: 'x' } }] }] };
    app = await startTestApp(writes, { settings: { runsAtOnce: 1, autoApproveEdits: true } });
    const a = await sendInNewChat(app, 'A');
    await until('A to ask Claude', () => asked(app!).length === 1);
    const b = await sendInNewChat(app, 'B');
    const c = await sendInNewChat(app, 'C');
    await app.api.release(); // A's reply: write_file, then A asks again and is still running
    await until('A to ask Claude again', () => asked(app!).length === 2);
    const names = async () => (await readdir(app!.dataDir, { recursive: true })).join('\n');
    /** Every file of the data folder that names the chat, by its path or in its content (the index's rows too). */
    const naming = async (id: string) => {
      const files = (await readdir(app!.dataDir, { recursive: true })).filter((f) => statSync(join(app!.dataDir, f)).isFile());
      return files.filter((f) => f.includes(id) || readFileSync(join(app!.dataDir, f), 'utf8').includes(id));
    };
    // Before: each has its log, and A its checkpoint folder.
    for (const id of [a, b]) expect(await naming(id), id).not.toEqual([]);
    expect(existsSync(join(app.dataDir, 'checkpoints', a))).toBe(true);
    expect(await runOf(app, a)).not.toBe('idle');
    expect(typeof (await summaryOf(app, b))?.queued).toBe('number');

    const from = app.events.length;
    await app.call('deleteSession', { sessionId: b }); // queued
    await app.call('deleteSession', { sessionId: a }); // running: C takes the slot, B never runs
    await until('C to ask Claude', () => asked(app!).length === 3);
    expect(asked(app)).toEqual(['A', '', 'C']);
    await app.api.release(2);
    await until('C to end', () => endedIn(app!, c, from));
    await new Promise((r) => setTimeout(r, 200));
    expect(asked(app)).toEqual(['A', '', 'C']);
    for (const id of [a, b]) expect(await names(), id).not.toContain(id);
    await app.restart();
    const listed = (await app.call('listSessions', {})).sessions.map((s) => s.id);
    expect(listed).not.toContain(a);
    expect(listed).not.toContain(b);
    expect(listed).toContain(c);
    // The index was written (it lists C) and no file names A or B, in its path or its content.
    expect((await readdir(app.dataDir, { recursive: true })).filter((f) => f.endsWith('index.json'))).not.toEqual([]);
    for (const id of [a, b]) expect(await naming(id), id).toEqual([]);
  }, 60_000);
});
