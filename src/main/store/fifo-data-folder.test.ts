import { mkdtemp, rm } from 'node:fs/promises';
import { lstatSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ScriptedServer } from '../../../test-support/scripted-api/server';
import { scripted, startInstance, type Instance } from '../../../test-support/main/persistence-test-kit';
import { hasMkfifo, plantedFifos, type PlantedFifos } from '../../../test-support/main/planted-fifo';
import { takeFromInbox } from './chat-inbox';
import { LogTail } from './log-tail';
import { readSpans } from './log-spans';
import { ChatLogWriter } from './log-writer';
import { SettingsStore } from '../settings/settings-store';

/**
 * FIFOs planted in the data folder (as a chat log, an inbox request, the chat index, settings)
 * are refused without blocking: the chat is listed as damaged, the file skipped or set aside,
 * each with a word that says what it is. No rescuer (test-support/main/planted-fifo.ts) may have
 * had to open one.
 */
let dir: string;
let server: ScriptedServer;
let fifos: PlantedFifos;
const open: Instance[] = [];

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'waypoint-fifo-'));
  server = await scripted({ name: 'echo', turns: [], onExhausted: 'echo' });
  fifos = plantedFifos();
});
afterEach(async () => {
  for (const instance of open.splice(0)) await instance.close();
  fifos.dispose();
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

describe.skipIf(!hasMkfifo)('FIFOs in the data folder', () => {
  it('never block a start: the chat is damaged with a word, settings and the index are set aside', async () => {
    const sessions = join(dir, 'sessions');
    fifos.plant(join(dir, 'settings.json'));
    fifos.plant(join(sessions, 'index.json'));
    fifos.plant(join(sessions, 'fifo-chat', 'events.jsonl'));

    const settings = await SettingsStore.open(dir);
    expect(settings.loadStatus).toMatchObject({ kind: 'reset', reason: expect.stringMatching(/not a regular file/) });
    settings.dispose();
    const instance = await startInstance(dir, server.url);
    open.push(instance);
    expect(instance.chats.listSessions().find((s) => s.id === 'fifo-chat')).toMatchObject({ damaged: 'its log is a pipe (FIFO), not a file' });
    expect(instance.warnings.join('\n')).toMatch(/index .*pipe \(FIFO\)|pipe \(FIFO\).*index/);
    // The chat itself works.
    const { id } = instance.chats.newSession();
    instance.chat.sendMessage(id, 'hello');
    await instance.idle(id);
    expect(fifos.rescued()).toEqual([]);
  });

  it('never block reading or writing a log, or taking requests from an inbox', () => {
    const log = join(dir, 'sessions', 'c1', 'events.jsonl');
    const request = join(dir, 'sessions', 'c2', 'inbox', '000000000000001-000000001-1-abcd.json');
    fifos.plant(log);
    fifos.plant(request);

    expect(new LogTail(log, 0, -1).read()).toEqual({ kind: 'gone' });
    expect(new LogTail(log, 0, -1).tornBytes()).toBe(0);
    expect(() => readSpans(log, [{ start: 0, end: 10 }])).toThrow(/pipe \(FIFO\), not a regular file/);
    const faults: string[] = [];
    const writer = new ChatLogWriter(log, 0, { onFault: (error) => faults.push(`${error.code}: ${error.message}`), retryMs: 60_000 });
    writer.append({ type: 'run', state: { status: 'idle' } });
    writer.close();
    expect(faults).toEqual([expect.stringMatching(/^ENOTREG: .*pipe \(FIFO\)/)]);

    const warnings: string[] = [];
    expect(takeFromInbox(join(dir, 'sessions', 'c2'), (m) => warnings.push(m))).toEqual([]);
    expect(warnings).toEqual([expect.stringMatching(/pipe \(FIFO\), not a regular file.*ignored/)]);
    // Removed: it can never become a request.
    expect(() => lstatSync(request)).toThrow(/ENOENT/);
    expect(fifos.rescued()).toEqual([]);
  });
});
