import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ScriptedServer } from '../../../test-support/scripted-api/server';
import { scripted, startInstance, type Instance } from '../../../test-support/main/persistence-test-kit';

/**
 * A chat log edited while the app runs (a user or a tool saves the .jsonl): the writer owns its
 * log, notices bytes changed behind its back before its next append, and stops writing; the chat
 * goes read-only with a clear reason. Nothing the edited file says reaches the API unless the
 * API would take it, and the in-memory chat is never corrupted.
 */
let dir: string;
let server: ScriptedServer;
const open: Instance[] = [];

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'waypoint-edited-'));
  server = await scripted({ name: 'echo', turns: [], onExhausted: 'echo' });
});
afterEach(async () => {
  for (const instance of open.splice(0)) await instance.close();
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

async function start(): Promise<Instance> {
  const instance = await startInstance(dir, server.url);
  open.push(instance);
  return instance;
}

async function say(instance: Instance, id: string, text: string): Promise<void> {
  instance.events.length = 0;
  instance.chat.sendMessage(id, text);
  await instance.idle(id);
}

const logOf = (id: string) => join(dir, 'sessions', id, 'events.jsonl');

describe('a chat log edited under a running app', () => {
  it('is noticed by its writer: never written again, the chat read-only with the reason, the run and its requests valid', async () => {
    const instance = await start();
    const { id } = instance.chats.newSession();
    await say(instance, id, 'first');
    await instance.persistence.flush();
    // Saved by an editor: the last lines gone, a comment of the user's own added.
    const lines = (await readFile(logOf(id), 'utf8')).split('\n').filter(Boolean);
    const edited = `${[...lines.slice(0, -3), '{"note":"edited by hand"}'].join('\n')}\n`;
    await writeFile(logOf(id), edited);

    await say(instance, id, 'second');
    await instance.persistence.flush();
    const summary = instance.chats.listSessions().find((s) => s.id === id)!;
    expect(summary.damaged).toMatch(/^its log was changed outside Waypoint while this chat was open \(it is \d+ bytes long where Waypoint had written \d+\)$/);
    expect(instance.warnings.join('\n')).toMatch(/changed outside Waypoint .* read-only/);
    // The user's file is left exactly as they saved it.
    expect(await readFile(logOf(id), 'utf8')).toBe(edited);
    // What was in memory is intact, the reply came, and every request was one the API takes.
    expect(instance.chats.getSession(id).transcript.filter((i) => i.kind === 'user').map((i) => i.kind === 'user' && i.text)).toEqual(['first', 'second']);
    expect(server.invalid).toEqual([]);
    expect(() => instance.chat.sendMessage(id, 'third')).toThrow(/read-only/);
  });

  it('a history read back from a log changed since it was loaded goes to the API only if the API would take it', async () => {
    const first = await start();
    const { id } = first.chats.newSession();
    await say(first, id, 'one');
    await say(first, id, 'two');
    await first.close();
    open.splice(0);

    const second = await start();
    // Opened first: a start lists the chat from the chat index and reads its log only when it is used.
    second.chats.getSession(id);
    const before = server.requests.length;
    // Claude's reply turned into a second user message: roles no longer alternate.
    const text = await readFile(logOf(id), 'utf8');
    await writeFile(logOf(id), text.replaceAll('"role":"assistant"', '"role":"user"'));
    expect(() => second.chat.sendMessage(id, 'three')).toThrow(/changed outside Waypoint.*not one Claude accepts \(messages 0 and 1 are both user messages\)/);
    expect(server.requests.length).toBe(before);
    expect(server.invalid).toEqual([]);

    // Loaded again, the chat opens read-only and says why.
    await second.close();
    open.splice(0);
    const third = await start();
    expect(third.chats.listSessions().find((s) => s.id === id)?.damaged).toBe('its API history is not one Claude accepts (messages 0 and 1 are both user messages)');
    expect(() => third.chat.sendMessage(id, 'three')).toThrow(/read-only/);
  });
});
