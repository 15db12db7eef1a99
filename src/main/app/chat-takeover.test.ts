import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useDataFolder } from '../../../test-support/main/data-folder-writers';
import { until } from '../../../test-support/main/until';
import { noticeItem } from '../common/transcript-items';
import { lockPathFor, type LockOwner } from '../store/chat-lock';
import { chatWriterOf, lockLost, takeOverChat } from './chat-takeover';

/** "Take over" end to end through the services: the chat says who took it from whom, and the loser says it lost it. */
const folder = useDataFolder('waypoint-chat-takeover-');

async function shell(holder: string) {
  // What Take over and a lost lock act on, as app/services.ts gives it: the chat of record, and its run.
  let target: Parameters<typeof lockLost>[0] | undefined;
  const writer = await folder.writer(holder, ({ chats, chat }) => {
    target = { requireSession: (id: string) => chats.requireSession(id), addNotice: chats.addNotice.bind(chats), stop: (id: string) => chat.stop(id) };
    return { follow: true, warn: () => undefined, onRequest: () => undefined, onLockLost: (sessionId, by) => lockLost(target!, sessionId, by) };
  });
  return { ...writer, target: target! };
}

describe('Take over, through the services', () => {
  it('the chat records the takeover; the process that lost the lock says so in its window', async () => {
    const laptop = await shell('the Waypoint app');
    const { id } = laptop.chats.newSession({ title: 'Shared' });
    laptop.chats.addNotice(id, noticeItem('info', 'from the laptop'));
    const path = lockPathFor(join(folder.dataDir, 'sessions'), id);
    const theirs = JSON.parse(readFileSync(path, 'utf8')) as LockOwner;
    writeFileSync(path, JSON.stringify({ ...theirs, host: 'laptop.local' }));

    const here = await shell('the Waypoint web shell');
    const writer = chatWriterOf(here.persistence, id);
    expect(writer).toEqual({ holder: 'the Waypoint app', host: 'laptop.local', pid: process.pid, since: theirs.since, token: theirs.token, state: 'other_host' });
    expect(takeOverChat(here.persistence, here.target, id, writer!.token)).toEqual({ takenOver: true });
    expect(chatWriterOf(here.persistence, id)).toBeNull();
    expect(here.chats.getSession(id).transcript.at(-1)).toMatchObject({ kind: 'notice', code: 'chat_taken_over', text: expect.stringMatching(/^You took this chat over from the Waypoint app, pid \d+ on laptop\.local/) });
    expect(readFileSync(join(folder.dataDir, 'sessions', id, 'events.jsonl'), 'utf8')).toContain('You took this chat over from the Waypoint app');

    // The laptop's next look at its lock.
    await until(() => laptop.chats.getSession(id).transcript.some((i) => i.kind === 'notice' && i.code === 'chat_lock_lost'), 'the laptop to notice', 8_000, 20);
    const laptopSees = laptop.chats.getSession(id).transcript;
    expect(laptopSees.find((i) => i.kind === 'notice' && i.code === 'chat_lock_lost')).toMatchObject({ level: 'warning', text: expect.stringMatching(/^the Waypoint web shell, pid \d+ took this chat over; it is no longer written here\.$/) });
    // From then on it follows the new writer's log, as any window does.
    await until(() => laptop.chats.getSession(id).transcript.some((i) => i.kind === 'notice' && i.code === 'chat_taken_over'), 'the laptop to follow the takeover notice', 8_000, 20);
  });
});
