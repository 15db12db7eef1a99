import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ScriptedServer } from '../../../test-support/scripted-api/server';
import { scripted, startInstance, type Instance } from '../../../test-support/main/persistence-test-kit';

/**
 * Messages the API never answers pile up in one trailing user message (api-history.ts merges
 * them). The log must grow by what each message adds, not by the whole pending message again:
 * 40 messages of 480 KB once wrote 271 MB.
 */
let dir: string;
let server: ScriptedServer;
const open: Instance[] = [];

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'waypoint-growth-'));
  // Every request is refused (400): nothing ever answers the messages.
  server = await scripted({ name: 'refuses', turns: Array.from({ length: 40 }, () => ({ kind: 'fault' as const, fault: 'bad_request' as const })) });
});
afterEach(async () => {
  for (const instance of open.splice(0)) await instance.close();
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

describe('log growth while messages go unanswered', () => {
  it('is linear: 40 messages of 480 KB write about 40 × 480 KB (twice over: the item and the history), and all of them come back', async () => {
    const instance = await startInstance(dir, server.url);
    open.push(instance);
    const { id } = instance.chats.newSession();
    const size = 480 * 1024;
    const count = 40;
    for (let n = 0; n < count; n++) {
      instance.chat.sendMessage(id, `${String(n).padStart(3, '0')} ${'x'.repeat(size - 4)}`);
      await instance.idle(id);
      instance.events.length = 0;
    }
    await instance.persistence.flush();
    const logBytes = (await stat(join(dir, 'sessions', id, 'events.jsonl'))).size;
    const sent = size * count;
    console.log(`[log-growth] ${count} messages of ${size} bytes: log ${logBytes} bytes`);
    // Each message is in its transcript item once and in the history once; records' own fields are small.
    expect(logBytes).toBeLessThan(sent * 2.2);
    const history = structuredClone(instance.chats.sessionState(id)!.history);
    await instance.close();
    open.splice(0);

    // The history read back is the one the chat had: every pending message, in order.
    const again = await startInstance(dir, server.url);
    open.push(again);
    const state = again.chats.sessionState(id)!;
    expect(state.history).toEqual(history);
    const last = history.at(-1)!;
    expect(last.role).toBe('user');
    expect(Array.isArray(last.content) && last.content.length).toBe(count);
  }, 120_000);
});
