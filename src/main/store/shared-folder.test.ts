import { spawn, type ChildProcess } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { useDataFolder, type Writer } from '../../../test-support/main/data-folder-writers';
import { until } from '../../../test-support/main/until';
import { noticeItem } from '../common/transcript-items';
import { defaultSettings } from '../../shared/settings';
import { inboxDir, sendToInbox, takeFromInbox, type TakenRequest } from './chat-inbox';
import { lockPathFor } from './chat-lock';
import { readLog } from './log-reader';
import { LogTail } from './log-tail';
import { ChatLogWriter } from './log-writer';
import { callTool } from '../tools/define-tool';

/**
 * Two instances of the app's persistence on one data folder, in one process (each with its own
 * lock token, so each sees the other as a live writer): listing, following, refusing, claiming,
 * giving back, the inbox, and a writer that dies.
 */
const folder = useDataFolder('waypoint-shared-');
const children: ChildProcess[] = [];
// Registered after the folder's clean-up, so it runs before it: no child outlives its folder.
afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
});

type Instance = Writer & { requests: Array<{ sessionId: string; taken: TakenRequest }> };

/** A writer on the folder that reads its chats' inboxes and keeps the requests it took. */
async function instance(holder: string, options: { follow?: boolean; releaseIdleMs?: number } = {}): Promise<Instance> {
  const requests: Instance['requests'] = [];
  const writer = await folder.writer(holder, {
    ...options,
    onRequest: (sessionId, taken) => {
      requests.push({ sessionId, taken });
    },
  });
  return { ...writer, requests };
}

async function plan(inst: Instance, sessionId: string, name: string, input: unknown) {
  const tool = inst.plans.toolsFor('structured').find((t) => t.name === name)!;
  const outcome = await callTool(tool, input, { sessionId, signal: new AbortController().signal, settings: defaultSettings() });
  expect(outcome.ok).toBe(true);
}

describe('one data folder, two writers in turn', () => {
  it('a chat another instance writes is listed and followed live; it is refused while held, then claimed, and given back when idle', async () => {
    const app = await instance('the app', { follow: true, releaseIdleMs: 50 });
    const mcp = await instance('waypoint mcp');
    const { id } = mcp.chats.newSession({ title: 'claude-code · planning over MCP' });
    await plan(mcp, id, 'create_plan', { goal: 'Ship', steps: [{ step_number: 1, description: 'Bump' }, { step_number: 2, description: 'Publish' }] });

    await until(() => app.events.some((e) => e.type === 'session_updated' && e.session.id === id), 'the new chat to be listed');
    await until(() => app.plans.getPlan(id)?.version === 1, 'the plan to be followed');
    expect(app.chats.listSessions().map((s) => s.id)).toContain(id);

    await plan(mcp, id, 'update_plan', { action: 'start_step', step_number: 1 });
    await until(() => app.events.some((e) => e.type === 'plan_updated' && e.sessionId === id && e.plan.version === 2), 'v2 live');
    expect(app.chats.getSession(id).plan?.steps[0]?.status).toBe('in_progress');
    expect(app.chats.getSession(id).transcript.some((i) => i.kind === 'plan_change')).toBe(true);

    expect(() => app.persistence.claim(id)).toThrow(/being written by waypoint mcp, pid \d+/);
    expect(app.persistence.writerElsewhere(id)?.holder).toBe('waypoint mcp');

    await mcp.close();
    expect(existsSync(lockPathFor(join(folder.dataDir, 'sessions'), id))).toBe(false);
    app.persistence.claim(id);
    app.chats.renameSession(id, 'Renamed in the app');
    await until(() => !existsSync(lockPathFor(join(folder.dataDir, 'sessions'), id)), 'the idle chat to be given back');

    const read = readLog(join(folder.dataDir, 'sessions', id, 'events.jsonl'));
    expect(read.warnings).toEqual([]);
    expect(read.records.map((r) => r.seq)).toEqual(read.records.map((_, i) => i));
    expect(read.records.at(-1)).toMatchObject({ type: 'summary', session: { title: 'Renamed in the app' } });
    expect(app.warnings).toEqual([]);
  });

  it('a rewind the writer logs (an edited message there) cuts the follower`s transcript and drops the plan it dropped', async () => {
    const app = await instance('the app', { follow: true });
    const mcp = await instance('waypoint mcp');
    const { id } = mcp.chats.newSession();
    mcp.chats.addNotice(id, { id: 'kept', createdAt: 'x', kind: 'notice', level: 'info', text: 'before the cut' });
    await plan(mcp, id, 'create_plan', { goal: 'Ship', steps: [{ step_number: 1, description: 'Bump' }] });
    await until(() => app.plans.getPlan(id)?.version === 1, 'the plan to be followed');
    const cutFrom = app.chats.sessionState(id)!.idAt(1)!;
    // What rerun.ts does in the writing process: the plan made in the cut turns goes with them.
    mcp.plans.drop(id);
    mcp.chats.mirror(id, { type: 'chat_rewound', sessionId: id, fromItemId: cutFrom, planDropped: true });
    await until(() => app.chats.sessionState(id)!.itemCount === 1, 'the cut to be followed');
    expect(app.chats.sessionState(id)!.transcript.map((i) => i.id)).toEqual(['kept']);
    expect(app.plans.getPlan(id)).toBeNull();
  });

  it('a version the writer keeps (an edited message there) is kept by the follower too, so it can show it later', async () => {
    const app = await instance('the app', { follow: true });
    const mcp = await instance('waypoint mcp');
    const { id } = mcp.chats.newSession();
    mcp.chats.addNotice(id, { id: 'first', createdAt: 'x', kind: 'notice', level: 'info', text: 'the first version' });
    await until(() => app.chats.sessionState(id)?.itemCount === 1, 'the chat to be followed');
    const kept = { group: 'g', index: 0, from: 0, history: [], items: mcp.chats.sessionState(id)!.transcript, plan: null };
    mcp.chats.sessionState(id)!.keepVersion(kept);
    await until(() => !!app.chats.sessionState(id)!.keptVersion('g', 0), 'the version to be followed');
    expect(app.chats.sessionState(id)!.keptVersion('g', 0)).toEqual(kept);
  });

  it('a follower applies only what its writer could have written: a hand-made history line the API would refuse makes the chat read-only there', async () => {
    const app = await instance('the app', { follow: true });
    const mcp = await instance('waypoint mcp');
    const { id } = mcp.chats.newSession();
    await plan(mcp, id, 'create_plan', { goal: 'Ship', steps: [{ step_number: 1, description: 'Bump' }] });
    await until(() => app.plans.getPlan(id)?.version === 1, 'the plan to be followed');
    const path = join(folder.dataDir, 'sessions', id, 'events.jsonl');
    const lastSeq = readLog(path).nextSeq - 1;
    // A line no writer wrote: a history that starts with Claude.
    appendFileSync(path, `${JSON.stringify({ seq: lastSeq + 1, t: 'x', type: 'history', from: 0, messages: [{ role: 'assistant', content: [{ type: 'text', text: 'made up' }] }] })}\n`);
    await until(() => !!app.chats.listSessions().find((s) => s.id === id)?.damaged, 'the follower to mark the chat read-only');
    expect(app.chats.listSessions().find((s) => s.id === id)?.damaged).toMatch(/changed outside Waypoint.*it starts with an assistant message/);
    expect(() => app.persistence.claim(id)).not.toThrow();
    expect(app.persistence.writerElsewhere(id)?.holder).toBe('waypoint mcp');
  });

  it('requests reach the writer through the inbox; with no other writer there is nothing to forward', async () => {
    const app = await instance('the app', { follow: true });
    const run = await instance('waypoint run');
    const { id } = run.chats.newSession();
    await until(() => app.chats.listSessions().some((s) => s.id === id), 'the chat to be listed');
    expect(app.persistence.forward(id, { kind: 'stop' })).not.toBeNull();
    await until(() => run.requests.length === 1, 'the request to arrive');
    expect(run.requests[0]).toMatchObject({ sessionId: id, taken: { request: { kind: 'stop' }, from: { pid: process.pid, holder: 'the app' } } });
    expect(readdirSync(inboxDir(join(folder.dataDir, 'sessions', id)))).toEqual([]);
    await run.close();
    expect(app.persistence.forward(id, { kind: 'stop' })).toBeNull();
  });

  it('a writer that died mid-line: its complete records are followed, and claiming takes the lock over and cuts the torn line', async () => {
    // A stand-in writer: a live process's pid in the lock, its records written here by hand.
    const writer = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    children.push(writer);
    const id = 'chat-from-a-crashing-writer';
    const sessionsDir = join(folder.dataDir, 'sessions');
    const logPath = join(sessionsDir, id, 'events.jsonl');
    const log = new ChatLogWriter(logPath);
    mkdirSync(join(sessionsDir, id), { recursive: true });
    writeFileSync(lockPathFor(sessionsDir, id), JSON.stringify({ pid: writer.pid, host: hostname(), token: 't', holder: 'waypoint run', since: new Date().toISOString() }));
    const now = new Date().toISOString();
    log.append({ type: 'created', session: { id, title: 'Headless', createdAt: now, updatedAt: now } });

    const app = await instance('the app', { follow: true, releaseIdleMs: 50 });
    expect(app.chats.listSessions().map((s) => s.title)).toEqual(['Headless']);
    const notice = noticeItem('info', 'Working on it');
    log.append({ type: 'item', item: notice });
    log.append({ type: 'summary', session: { id, title: 'Headless, renamed', createdAt: now, updatedAt: now } });
    appendFileSync(logPath, '{"seq":3,"t":"x","type":"ite');
    await until(() => app.chats.listSessions()[0]?.title === 'Headless, renamed', 'the summary to be followed');
    expect(app.chats.getSession(id).transcript).toEqual([notice]);
    expect(app.warnings).toEqual([]); // a line on its way is no damage while its writer lives

    writer.kill('SIGKILL');
    await new Promise((r) => writer.once('exit', r));
    log.close();
    app.persistence.claim(id);
    app.chats.renameSession(id, 'Taken over');
    expect(app.warnings.join('\n')).toMatch(/was left locked by waypoint run, pid \d+, which is no longer running; this process took it over/);
    expect(app.warnings.join('\n')).toMatch(/dropped a torn last line \(\d+ bytes\) left by a process that stopped mid-write/);
    const read = readLog(logPath);
    expect(read.warnings).toEqual([]);
    expect(read.records.map((r) => r.seq)).toEqual([0, 1, 2, 3]);
    expect(read.records.at(-1)).toMatchObject({ type: 'summary', session: { title: 'Taken over' } });
  });
});

describe('log tail and inbox', () => {
  it('a tail returns complete lines only, the partial one on a later read; a deleted log is gone', () => {
    const path = join(folder.dataDir, 'log.jsonl');
    const writer = new ChatLogWriter(path);
    const now = new Date().toISOString();
    writer.append({ type: 'created', session: { id: 'c', title: 't', createdAt: now, updatedAt: now } });
    const tail = new LogTail(path, 0, -1);
    expect(tail.read()).toMatchObject({ kind: 'records', records: [{ seq: 0, type: 'created' }] });
    appendFileSync(path, '{"seq":1,"t":"x","type":"run","state":{"status":"id');
    expect(tail.read()).toEqual({ kind: 'records', records: [], spans: [], warnings: [] });
    expect(tail.tornBytes()).toBeGreaterThan(0);
    appendFileSync(path, 'le"}}\n');
    const read = tail.read();
    expect(read).toMatchObject({ kind: 'records', records: [{ seq: 1, type: 'run' }] });
    // Each record's span is where its line lies in the file: a follower reads items back from there.
    const bytes = readFileSync(path);
    const span = read.kind === 'records' ? read.spans[0]! : { start: 0, end: 0 };
    expect(bytes.toString('utf8', span.start, span.end)).toBe('{"seq":1,"t":"x","type":"run","state":{"status":"idle"}}');
    writer.close();
    rmSync(path);
    expect(tail.read()).toEqual({ kind: 'gone' });
  });

  it('the inbox hands requests over in the order sent, once; a file that is no request is dropped with a warning', () => {
    const chatDir = join(folder.dataDir, 'chat');
    const from = { pid: 1, holder: 'the app' };
    sendToInbox(chatDir, from, { kind: 'stop' });
    writeFileSync(join(inboxDir(chatDir), '000000000000001-x.json'), '{"request":{"kind":"explode"}}');
    sendToInbox(chatDir, { pid: 2, holder: 'another app' }, { kind: 'stop' });
    const warnings: string[] = [];
    const taken = takeFromInbox(chatDir, (m) => warnings.push(m));
    expect(taken.map((t) => t.from.pid)).toEqual([1, 2]);
    expect(warnings).toEqual([expect.stringMatching(/not a request this Waypoint understands/)]);
    expect(takeFromInbox(chatDir, () => undefined)).toEqual([]);
  });
});

describe('the queue of "Runs at once" on a shared data folder', () => {
  it('a queued chat another live process writes is not started here at a restart: it stays that process\'s', async () => {
    const web = await instance('the web shell');
    const { id } = web.chats.newSession({ title: 'queued over there' });
    const session = web.chats.registry.require(id);
    web.chats.registry.publish(session, { type: 'transcript_item', sessionId: id, item: noticeItem('info', 'written by the web shell', 'test') });
    web.chats.registry.publish(session, { type: 'session_updated', session: { ...session.summary, queued: 5 } });
    await until(() => !!web.persistence.chatWriter(id) === false && existsSync(lockPathFor(folder.sessionsDir, id)), 'the web shell to hold the chat');

    const app = await instance('the app');
    expect(app.chats.listSessions().find((s) => s.id === id)?.queued).toBe(5);
    const from = app.events.length;
    app.chat.restoreQueue((sessionId) => app.persistence.claim(sessionId));
    // Neither started (a run, or the reason it could not) nor taken off the queue here: the chat is the web shell's.
    expect(app.events.slice(from).filter((e) => 'sessionId' in e ? e.sessionId === id : e.type === 'session_updated' && e.session.id === id)).toEqual([]);
    expect(app.chat.isRunning(id)).toBe(false);
    expect(app.persistence.writerElsewhere(id)?.holder).toBe('the web shell');
  });
});
