import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { plansStructured } from '../../../test-support/scenarios/plans-structured';
import type { ScriptedServer } from '../../../test-support/scripted-api/server';
import { scripted, startInstance, type Instance } from '../../../test-support/main/persistence-test-kit';
import { chatKilledMidToolCall } from '../../../test-support/main/killed-mid-run';
import { readLog } from './log-reader';

let dir: string;
let server: ScriptedServer;
const open: Instance[] = [];

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'waypoint-load-race-'));
  server = await scripted(plansStructured);
});
afterEach(async () => {
  vi.useRealTimers();
  for (const i of open.splice(0)) await i.close();
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

/**
 * Found by the kill-replay test on a loaded machine: the folder poll of a windowed shell fired
 * while start-up was still loading, adopted a killed chat a second time, and two writers then
 * numbered the same log ("line 194 has seq 188 after 192; skipped" — records lost on load).
 */
describe('start-up of a windowed shell while its folder poll is due', () => {
  it('adopts a killed chat once: one repair, one writer, every record in order', async () => {
    // Killed mid-run: the log ends on a running turn.
    const { id, path } = await chatKilledMidToolCall(dir, server.url);

    // The poll is made due before the load's first await returns: it must not act on a half-loaded folder.
    vi.useFakeTimers({ toFake: ['setInterval'] });
    const starting = startInstance(dir, server.url, undefined, [], { follow: true, releaseIdleMs: 20 });
    vi.advanceTimersByTime(2_000);
    const back = await starting;
    open.push(back);
    vi.advanceTimersByTime(2_000); // now the poll may run: the chats are loaded
    vi.useRealTimers();

    expect(back.chats.getSession(id).session.interrupted).toBe(true);
    // Work on, let the chat be given back when idle, and work on again (a second claim).
    expect(back.chat.retryRun(id)).toEqual({ started: true });
    await back.idle(id);
    await new Promise((r) => setTimeout(r, 100)); // past releaseIdleMs: the chat is given back
    back.events.length = 0;
    back.chat.sendMessage(id, 'And once more');
    await back.idle(id);
    await back.persistence.flush();
    await new Promise((r) => setTimeout(r, 100));

    const read = readLog(path);
    expect(read.warnings).toEqual([]);
    const repairs = read.records.filter((r) => r.type === 'item' && r.item.kind === 'notice' && (r.item as { code?: string }).code === 'interrupted');
    expect(repairs).toHaveLength(1);
    const seqs = read.records.map((r) => r.seq);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
  }, 30_000);
});
