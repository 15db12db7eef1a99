import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { keySource, settingsSource } from '../../../test-support/main/chat-test-harness';
import { chatsAndRuns } from '../../../test-support/main/chats-and-runs';
import { noticeItem } from '../common/transcript-items';
import { PlanService } from '../plan/plan-service';
import { lockPathFor, type LockOwner } from '../store/chat-lock';
import { ChatLogs } from '../store/chat-logs';
import { ToolRegistry } from '../tools/tool-registry';
import { chatWriterOf, lockLost, takeOverChat } from './chat-takeover';

/** "Take over" end to end through the services: the chat says who took it from whom, and the loser says it lost it. */
let dataDir: string;
const closers: Array<() => Promise<void>> = [];
beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'waypoint-chat-takeover-'));
});
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
  rmSync(dataDir, { recursive: true, force: true });
});

async function shell(holder: string) {
  const plans = new PlanService({ dataDir });
  const { chats, chat, dispose: disposeChats } = chatsAndRuns({ settings: settingsSource(), apiKey: keySource(null), plans, tools: new ToolRegistry(), workspace: null });
  // What Take over and a lost lock act on, as app/services.ts gives it: the chat of record, and its run.
  const target = { requireSession: (id: string) => chats.requireSession(id), addNotice: chats.addNotice.bind(chats), stop: (id: string) => chat.stop(id) };
  const persistence = await ChatLogs.open({
    dataDir,
    chat: chats,
    runs: chat,
    plans,
    holder,
    follow: true,
    warn: () => undefined,
    onRequest: () => undefined,
    onLockLost: (sessionId, by) => lockLost(target, sessionId, by),
  });
  closers.push(async () => {
    await persistence.dispose();
    disposeChats();
    plans.dispose();
  });
  return { chats, chat, target, persistence };
}

async function until(condition: () => boolean, what: string, timeoutMs = 8_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('Take over, through the services', () => {
  it('the chat records the takeover; the process that lost the lock says so in its window', async () => {
    const laptop = await shell('the Waypoint app');
    const { id } = laptop.chats.newSession({ title: 'Shared' });
    laptop.chats.addNotice(id, noticeItem('info', 'from the laptop'));
    const path = lockPathFor(join(dataDir, 'sessions'), id);
    const theirs = JSON.parse(readFileSync(path, 'utf8')) as LockOwner;
    writeFileSync(path, JSON.stringify({ ...theirs, host: 'laptop.local' }));

    const here = await shell('the Waypoint web shell');
    const writer = chatWriterOf(here.persistence, id);
    expect(writer).toEqual({ holder: 'the Waypoint app', host: 'laptop.local', pid: process.pid, since: theirs.since, token: theirs.token, state: 'other_host' });
    expect(takeOverChat(here.persistence, here.target, id, writer!.token)).toEqual({ takenOver: true });
    expect(chatWriterOf(here.persistence, id)).toBeNull();
    expect(here.chats.getSession(id).transcript.at(-1)).toMatchObject({ kind: 'notice', code: 'chat_taken_over', text: expect.stringMatching(/^You took this chat over from the Waypoint app, pid \d+ on laptop\.local/) });
    expect(readFileSync(join(dataDir, 'sessions', id, 'events.jsonl'), 'utf8')).toContain('You took this chat over from the Waypoint app');

    // The laptop's next look at its lock.
    await until(() => laptop.chats.getSession(id).transcript.some((i) => i.kind === 'notice' && i.code === 'chat_lock_lost'), 'the laptop to notice');
    const laptopSees = laptop.chats.getSession(id).transcript;
    expect(laptopSees.find((i) => i.kind === 'notice' && i.code === 'chat_lock_lost')).toMatchObject({ level: 'warning', text: expect.stringMatching(/^the Waypoint web shell, pid \d+ took this chat over; it is no longer written here\.$/) });
    // From then on it follows the new writer's log, as any window does.
    await until(() => laptop.chats.getSession(id).transcript.some((i) => i.kind === 'notice' && i.code === 'chat_taken_over'), 'the laptop to follow the takeover notice');
  });
});
