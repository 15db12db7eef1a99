import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useDataFolder } from '../../../test-support/main/data-folder-writers';
import { until } from '../../../test-support/main/until';
import { noticeItem } from '../common/transcript-items';
import { inboxDir, type InboxReply } from './chat-inbox';
import { lockPathFor, type LockOwner } from './chat-lock';
import { readLog } from './log-reader';
import type { ChatLogsOptions } from './chat-logs';

/**
 * Locks that look alive but may not be (a reused pid, another boot, another host): stale ones are
 * taken over by themselves, the others by the user's "Take over", and the holder that lost the
 * lock stops writing. A Stop sent to another process is answered truthfully.
 */
const folder = useDataFolder('waypoint-takeover-');
const sessionsDir = () => folder.sessionsDir;
const readLock = (id: string) => JSON.parse(readFileSync(lockPathFor(sessionsDir(), id), 'utf8')) as LockOwner;

/** A writer on the folder that keeps the locks it lost. */
async function instance(holder: string, options: Partial<ChatLogsOptions> = {}) {
  const lost: Array<{ sessionId: string; by: LockOwner | null }> = [];
  const writer = await folder.writer(holder, { onLockLost: (sessionId, by) => lost.push({ sessionId, by }), ...options });
  return { ...writer, lost };
}

/** A chat written by a process that then went away, its lock left behind as `lock` says. */
async function chatLeftLocked(lock: Partial<LockOwner>): Promise<string> {
  const first = await instance('waypoint run');
  const { id } = first.chats.newSession({ title: 'Left behind' });
  first.chats.addNotice(id, noticeItem('info', 'written before'));
  await first.close();
  const owner: LockOwner = { pid: 1, host: hostname(), token: 'left', holder: 'waypoint run', since: '2026-01-01T00:00:00.000Z', ...lock };
  writeFileSync(lockPathFor(sessionsDir(), id), JSON.stringify(owner));
  return id;
}

describe.runIf(process.platform === 'linux')('a lock naming a live pid that is not its process', () => {
  it('pid 1 from an earlier boot: the chat is written at once, and the takeover is said', async () => {
    const id = await chatLeftLocked({ bootId: 'a-boot-long-ago', startTime: '25' });
    const app = await instance('the Waypoint web shell', { follow: true });
    expect(app.persistence.writerElsewhere(id)).toBeNull();
    app.persistence.claim(id);
    app.chats.renameSession(id, 'Mine now');
    expect(app.warnings.join('\n')).toMatch(/was left locked by waypoint run, pid 1, which ran before the computer restarted; this process took it over/);
    expect(readLog(join(sessionsDir(), id, 'events.jsonl')).records.at(-1)).toMatchObject({ type: 'summary', session: { title: 'Mine now' } });
  });

  it('pid 1 with a start time it never had (the pid was reused): the chat is written at once', async () => {
    const id = await chatLeftLocked({ startTime: '987654321' });
    const app = await instance('the Waypoint web shell');
    app.persistence.claim(id);
    expect(app.warnings.join('\n')).toMatch(/pid 1, which is no longer running \(pid 1 is another process now\)/);
  });

  it('an older Waypoint\'s lock (no start time) on a live pid: refused with what is known, then the user takes it over', async () => {
    const id = await chatLeftLocked({ token: 'old-waypoint' });
    // A headless run cannot take it over itself: it says where to.
    const headless = await instance('waypoint run');
    expect(() => headless.persistence.claim(id)).toThrow(/If it is not running, open the chat in the Waypoint app and take it over there\./);
    await headless.close();
    const app = await instance('the Waypoint web shell', { follow: true });
    expect(() => app.persistence.claim(id)).toThrow(/being written by waypoint run, pid 1 \(since 2026-01-01T00:00:00.000Z\); .* If it is not running, press Take over\./);
    expect(app.persistence.chatWriter(id)).toMatchObject({ owner: { pid: 1, token: 'old-waypoint' }, state: { kind: 'unverified', why: 'no_start_time' } });
    expect(() => app.persistence.takeOver(id, 'some-other-lock')).toThrow(/lock changed since you looked/);
    expect(app.persistence.takeOver(id, 'old-waypoint')).toMatchObject({ pid: 1, holder: 'waypoint run' });
    expect(readLock(id)).toMatchObject({ pid: process.pid, tookOverFrom: { pid: 1, holder: 'waypoint run' } });
    app.chats.renameSession(id, 'Taken over');
    expect(readLog(join(sessionsDir(), id, 'events.jsonl')).records.at(-1)).toMatchObject({ type: 'summary', session: { title: 'Taken over' } });
  });
});

describe('another host\'s lock', () => {
  it('is refused with the host named; "Take over" takes it, and the holder, still alive, stops writing', async () => {
    const laptop = await instance('the Waypoint app', { onRequest: () => undefined });
    const { id } = laptop.chats.newSession({ title: 'Shared folder' });
    laptop.chats.addNotice(id, noticeItem('info', 'from the laptop'));
    // The laptop's lock as this computer sees it: same folder, another host.
    const theirs = readLock(id);
    writeFileSync(lockPathFor(sessionsDir(), id), JSON.stringify({ ...theirs, host: 'laptop.local' }));

    const here = await instance('the Waypoint web shell', { follow: true });
    expect(() => here.persistence.claim(id)).toThrow(/the Waypoint app, pid \d+ on laptop\.local .*cannot check from here whether it still runs on laptop\.local/);
    expect(here.persistence.chatWriter(id)?.state).toEqual({ kind: 'unverified', why: 'other_host' });
    here.persistence.takeOver(id, theirs.token);
    here.chats.renameSession(id, 'Taken over here');

    // The laptop notices at its next look, stops writing and says so; what it does now is not logged.
    await until(() => laptop.lost.length > 0, 'the old holder to notice');
    expect(laptop.lost[0]).toMatchObject({ sessionId: id, by: { holder: 'the Waypoint web shell', pid: process.pid } });
    laptop.chats.addNotice(id, noticeItem('info', 'written after losing the lock'));
    expect(laptop.warnings.join('\n')).toMatch(/was taken over by the Waypoint web shell, pid \d+; this process no longer writes it/);

    const read = readLog(join(sessionsDir(), id, 'events.jsonl'));
    expect(read.warnings).toEqual([]);
    expect(read.records.map((r) => r.seq)).toEqual(read.records.map((_, i) => i));
    expect(JSON.stringify(read.records)).not.toContain('written after losing the lock');
    expect(read.records.at(-1)).toMatchObject({ type: 'summary', session: { title: 'Taken over here' } });
  });
});

describe('Stop sent to the process that writes the chat', () => {
  it('waits for its answer: stopped only if it says so', async () => {
    const app = await instance('the app', { follow: true });
    const answer: InboxReply = { done: false, reason: 'Nothing was running in this chat.' };
    const run = await instance('waypoint run', { onRequest: () => answer });
    const { id } = run.chats.newSession();
    await until(() => app.chats.listSessions().some((s) => s.id === id), 'the chat to be listed');
    expect(await app.persistence.forward(id, { kind: 'stop' })).toEqual(answer);
  });

  it('a writer that never answers (it does not read its inbox): no answer, and the request is withdrawn', async () => {
    const app = await instance('the app', { follow: true, replyTimeoutMs: 600 });
    const deaf = await instance('a process that reads no inbox');
    const { id } = deaf.chats.newSession();
    await until(() => app.chats.listSessions().some((s) => s.id === id), 'the chat to be listed');
    expect(await app.persistence.forward(id, { kind: 'stop' })).toBeNull();
    expect(readdirSync(inboxDir(join(sessionsDir(), id))).filter((n) => n.endsWith('.json'))).toEqual([]);
  });
});
