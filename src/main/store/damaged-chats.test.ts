import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ScriptedServer } from '../../../test-support/scripted-api/server';
import { scripted, startInstance, type Instance } from '../../../test-support/main/persistence-test-kit';

/**
 * A damaged chat stays in the list, marked damaged, and opens read-only with what could be read:
 * a corrupt first line (90+ records intact behind it), an empty log, a log that is a folder.
 * Skipped lines are counted. Nothing more of a damaged log is ever written or lost.
 */
let dir: string;
let server: ScriptedServer;
const open: Instance[] = [];

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'waypoint-damaged-'));
  server = await scripted({ name: 'echo', turns: [{ kind: 'text', text: 'A long reply. '.repeat(40), chunkChars: 6, delayMs: 0 }], onExhausted: 'echo' });
});
afterEach(async () => {
  for (const instance of open.splice(0)) await instance.close();
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

async function chatWith(instance: Instance, text: string): Promise<string> {
  const { id } = instance.chats.newSession();
  instance.chat.sendMessage(id, text);
  await instance.idle(id);
  return id;
}

describe('damaged chats', () => {
  it('are listed as damaged, read-only, with what could be read; skipped lines are counted', async () => {
    const dataDir = join(dir, 'data');
    const first = await startInstance(dataDir, server.url);
    const corruptFirst = await chatWith(first, 'Remember the blue notebook');
    const corruptMiddle = await chatWith(first, 'The second chat survives');
    await first.close();

    const sessions = join(dataDir, 'sessions');
    const logOf = (id: string) => join(sessions, id, 'events.jsonl');
    const lines = (await readFile(logOf(corruptFirst), 'utf8')).split('\n');
    expect(lines.length).toBeGreaterThan(10); // many records after the first
    const damagedText = ['{"seq":0,"t":"2026-01-01T00:00:00.000Z","type":"crea\u0000\u0000 garbage', ...lines.slice(1)].join('\n');
    await writeFile(logOf(corruptFirst), damagedText);
    const middle = (await readFile(logOf(corruptMiddle), 'utf8')).split('\n');
    await writeFile(logOf(corruptMiddle), [...middle.slice(0, 2), 'not json at all', ...middle.slice(2)].join('\n'));
    await mkdir(join(sessions, 'empty-log'));
    await writeFile(logOf('empty-log'), '');
    await mkdir(join(sessions, 'folder-log', 'events.jsonl'), { recursive: true });

    const again = await startInstance(dataDir, server.url);
    open.push(again);
    const list = again.chats.listSessions();
    expect(list).toHaveLength(4);
    const byId = new Map(list.map((s) => [s.id, s]));
    expect(byId.get(corruptFirst)).toMatchObject({ title: 'Remember the blue notebook', damaged: 'its first record could not be read', skippedLines: 1 });
    expect(byId.get(corruptMiddle)).toMatchObject({ title: 'The second chat survives', skippedLines: 1 });
    expect(byId.get(corruptMiddle)!.damaged).toBeUndefined();
    expect(byId.get('empty-log')).toMatchObject({ damaged: 'its log is empty (0 bytes)' });
    expect(byId.get('folder-log')).toMatchObject({ damaged: 'its log (events.jsonl) is a folder, not a file' });

    // What could be read is there: the message and the whole reply.
    const transcript = again.chats.getSession(corruptFirst).transcript;
    expect(transcript.find((i) => i.kind === 'user')).toMatchObject({ text: 'Remember the blue notebook' });
    expect(transcript.find((i) => i.kind === 'assistant')).toMatchObject({ text: 'A long reply. '.repeat(40) });

    // Read-only: nothing runs, and the damaged log is left byte for byte as it was.
    expect(() => again.chat.sendMessage(corruptFirst, 'more')).toThrow(/damaged .* read-only/);
    expect(() => again.chat.retryRun('empty-log')).toThrow(/read-only/);
    again.chats.renameSession(corruptFirst, 'Renamed');
    await again.persistence.flush();
    expect(await readFile(logOf(corruptFirst), 'utf8')).toBe(damagedText);
    // The undamaged chat with a skipped line still works.
    again.chat.sendMessage(corruptMiddle, 'and carries on');
    await again.idle(corruptMiddle);
    // A damaged chat can be deleted.
    expect(await again.persistence.deleteSession('folder-log')).toBe(true);
    expect(await readdir(sessions)).not.toContain('folder-log');
  }, 60_000);
});
