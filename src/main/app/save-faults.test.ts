import { mkdtemp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { faultyFs, type FaultyFs } from '../../../test-support/faulty-fs';
import { startScriptedServer, type ScriptedServer } from '../../../test-support/scripted-api/server';
import type { WaypointEvent } from '../../shared/contract';
import { parseLog } from '../store/log-reader';
import { MemorySecretStore } from '../settings/api-key-store';
import { createServices, type AppServices } from './services';

/**
 * Write failures with the whole app assembled: the disk fills while Claude streams (the timer
 * that flushes streamed text used to throw ENOSPC out of a timer and kill the process), and the
 * chats folder is a file (a real ENOTDIR, which root cannot bypass either).
 */
let dir: string;
let api: ScriptedServer;
const open: AppServices[] = [];

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'waypoint-save-faults-'));
  api = await startScriptedServer({
    scenario: { name: 'slow', onExhausted: 'echo', turns: [{ kind: 'text', text: 'A slow answer. '.repeat(60), chunkChars: 4, delayMs: 8 }] },
  });
});
afterEach(async () => {
  for (const services of open.splice(0)) await services.dispose();
  await api.close();
  await rm(dir, { recursive: true, force: true });
});

async function start(dataDir: string, fs?: FaultyFs) {
  const services = await createServices({
    dataDir,
    workspace: dir,
    shell: 'web',
    secretStore: new MemorySecretStore(),
    env: { ANTHROPIC_API_KEY: 'waypoint-save-faults-key', ANTHROPIC_BASE_URL: api.url },
    ...(fs ? { logFileSystem: fs } : {}),
    logRetryMs: 20,
  });
  open.push(services);
  const events: WaypointEvent[] = [];
  services.onEvent((e) => events.push(e));
  const call = async (name: string, input: unknown = {}) => {
    const result = await services.router(name, input);
    if (!result.ok) throw new Error(`${name}: ${result.error.message}`);
    return result.value as never;
  };
  const waitFor = async (pred: (e: WaypointEvent) => boolean, what: string) => {
    const deadline = Date.now() + 15_000;
    for (;;) {
      const found = events.find(pred);
      if (found) return found;
      if (Date.now() > deadline) throw new Error(`no ${what}; got ${events.map((e) => e.type).join(', ')}`);
      await new Promise((r) => setTimeout(r, 10));
    }
  };
  return { services, events, call, waitFor };
}

const errorEvent = (code: string) => (e: WaypointEvent) => e.type === 'error' && e.code === code;

describe('write failures never crash main and never lose what was saved', () => {
  it('the disk fills while Claude streams: the user is told why, the run pauses, and everything is written when space returns', async () => {
    const fs = faultyFs();
    const dataDir = join(dir, 'data');
    const app = await start(dataDir, fs);
    const { id } = (await app.call('newSession')) as { id: string };
    await app.call('sendMessage', { sessionId: id, text: 'Tell me slowly' });
    await app.waitFor((e) => e.type === 'message_delta', 'stream');
    fs.full = true;
    fs.roomBytes = 7; // a record cut part-way, as a filling disk does
    const alert = (await app.waitFor(errorEvent('save_failed'), 'save_failed')) as Extract<WaypointEvent, { type: 'error' }>;
    expect(alert.message).toMatch(/^Waypoint could not save the chat "Tell me slowly": the disk is full \(ENOSPC\)\. Claude's work in it is paused\./);
    // The run pauses: it goes idle instead of streaming on into a log that cannot take it.
    await app.waitFor((e) => e.type === 'run_state' && e.sessionId === id && e.state.status === 'idle', 'idle run');
    expect(fs.faults).toBeGreaterThan(0);
    // Space returns: the app carries on, and says so.
    fs.full = false;
    const back = (await app.waitFor(errorEvent('save_recovered'), 'save_recovered')) as Extract<WaypointEvent, { type: 'error' }>;
    expect(back.message).toMatch(/^Waypoint can save "Tell me slowly" again: everything is saved\./);
    // A later message is saved as usual.
    await app.waitFor((e) => e.type === 'run_state' && e.sessionId === id && e.state.status === 'idle', 'idle');
    const seen = app.events.filter((e) => e.type === 'transcript_item' && e.sessionId === id).length;
    await app.services.dispose();

    // Everything the user saw is in the log, whole: a restart shows it.
    const log = parseLog(await readFile(join(dataDir, 'sessions', id, 'events.jsonl'), 'utf8'));
    expect(log.warnings).toEqual([]);
    const again = await start(dataDir);
    const chat = (await again.call('getSession', { sessionId: id })) as { transcript: Array<{ kind: string; text?: string }> };
    expect(chat.transcript.find((i) => i.kind === 'user')?.text).toBe('Tell me slowly');
    expect(chat.transcript.find((i) => i.kind === 'assistant')?.text).toMatch(/^A slow answer\./);
    expect(seen).toBeGreaterThan(0);
  }, 60_000);

  it('a chats folder that is a file: the app starts, says it cannot save, and saves once it is a folder again', async () => {
    const dataDir = join(dir, 'data');
    await mkdir(dataDir, { recursive: true });
    await writeFile(join(dataDir, 'sessions'), 'not a folder');
    const app = await start(dataDir);
    // It started, and says plainly that chats are not saved.
    expect(((await app.call('getAppInfo')) as { storageProblem?: string }).storageProblem).toMatch(/^Waypoint cannot use its chats folder .*sessions/);
    const { id } = (await app.call('newSession')) as { id: string };
    await app.call('sendMessage', { sessionId: id, text: 'Keep this message' });
    const alert = (await app.waitFor(errorEvent('save_failed'), 'save_failed')) as Extract<WaypointEvent, { type: 'error' }>;
    expect(alert.message).toMatch(/^Waypoint could not save the chat "(New chat|Keep this message)": its folder is a file, not a folder \((ENOTDIR|EEXIST)\)/);
    // The folder comes back (the user moved the file away): the waiting records are written.
    await rm(join(dataDir, 'sessions'));
    // recursive: the app's own retry may make the folder first, between these two lines.
    await mkdir(join(dataDir, 'sessions'), { recursive: true });
    await app.waitFor(errorEvent('save_recovered'), 'save_recovered');
    await app.waitFor((e) => e.type === 'run_state' && e.sessionId === id && e.state.status === 'idle', 'idle');
    await app.services.dispose();
    const log = parseLog(await readFile(join(dataDir, 'sessions', id, 'events.jsonl'), 'utf8'));
    expect(log.records.some((r) => r.type === 'item' && r.item.kind === 'user' && r.item.text === 'Keep this message')).toBe(true);
  }, 60_000);
});
