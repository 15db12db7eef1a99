import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { faultyFs } from '../../../../test-support/faulty-fs';
import { kill, killAllLaunched, launch, requireBuiltShell } from '../../../../test-support/main/kill-harness';
import { expectSameTranscript, fullReplay, ids, item, planAt, text } from '../../../../test-support/main/paged-transcript-check';
import { startInstance, type Instance, type ShellOptions } from '../../../../test-support/main/persistence-test-kit';
import { settingsSource } from '../../../../test-support/main/chat-test-harness';
import { plansStructured } from '../../../../test-support/scenarios/plans-structured';
import { startScriptedServer, type ScriptedServer } from '../../../../test-support/scripted-api/server';
import type { WaypointEvent } from '../../../shared/contract';
import { loadChat } from '../load-chats';
import type { LogEntry } from '../log-records';
import { readLog } from '../log-reader';
import { replay } from '../replay';
import { restoreChat } from '../restore-chat';

/**
 * The paged transcript in a running app: persistence writes the chat, tells each item where its
 * records landed, and lets old items leave memory; every read still gives what the full replay
 * of the chat gives — while records wait on a full disk, after a restart, in a process that
 * follows another's log, in an earlier-version copy, after a kill, and once the chat is deleted.
 */

let server: ScriptedServer;
let dir: string;
const open: Instance[] = [];

beforeAll(async () => {
  server = await startScriptedServer({ scenario: { name: 'echo', turns: [], onExhausted: 'echo' } });
});
afterAll(async () => {
  killAllLaunched();
  await server.close();
});
afterEach(async () => {
  for (const instance of open.splice(0)) await instance.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

async function start(shell: ShellOptions): Promise<Instance> {
  const instance = await startInstance(dir, server.url, settingsSource(), [], shell);
  open.push(instance);
  return instance;
}

async function closeAll(): Promise<void> {
  for (const instance of open.splice(0)) await instance.close();
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

type Step =
  | { kind: 'event'; entry: LogEntry }
  | { kind: 'run'; running: boolean }
  | { kind: 'disk'; full: boolean }
  | { kind: 'wait' };

/** Events as the loop fires them: items, streamed text, plan changes (versions only go up), rewinds. */
function stepsArbitrary(): fc.Arbitrary<Step[]> {
  const step: fc.Arbitrary<Step> = fc.oneof(
    { weight: 6, arbitrary: item.map((value): Step => ({ kind: 'event', entry: { type: 'item', item: value } })) },
    { weight: 4, arbitrary: fc.record({ itemId: ids, text: text(30) }).map((t): Step => ({ kind: 'event', entry: { type: 'text', ...t } })) },
    { weight: 2, arbitrary: fc.record({ id: fc.constantFrom('p1', 'p2'), done: fc.boolean() }).map(({ id, done }): Step => ({ kind: 'event', entry: { type: 'plan', version: 0, plan: planAt(id, 0, done), change: { kind: 'planning', by: 'claude', summary: 'changed' } } })) },
    { weight: 1, arbitrary: fc.record({ itemId: ids, planDropped: fc.boolean() }).map((r): Step => ({ kind: 'event', entry: { type: 'rewind', ...r } })) },
    { weight: 1, arbitrary: fc.boolean().map((running): Step => ({ kind: 'run', running })) },
    { weight: 1, arbitrary: fc.boolean().map((full): Step => ({ kind: 'disk', full })) },
    { weight: 1, arbitrary: fc.constant<Step>({ kind: 'wait' }) },
  );
  // Plan versions are numbered in order, as the engine numbers them.
  return fc.array(step, { maxLength: 30 }).map((steps) => {
    let version = 0;
    return steps.map((s) => (s.kind === 'event' && s.entry.type === 'plan' ? { ...s, entry: { ...s.entry, version: ++version, plan: { ...s.entry.plan, version } } } : s));
  });
}

function eventOf(entry: LogEntry, sessionId: string): WaypointEvent {
  switch (entry.type) {
    case 'item':
      return { type: 'transcript_item', sessionId, item: entry.item };
    case 'text':
      return { type: 'message_delta', sessionId, itemId: entry.itemId, text: entry.text };
    case 'plan':
      return { type: 'plan_updated', sessionId, plan: entry.plan, change: entry.change! };
    case 'rewind':
      return { type: 'chat_rewound', sessionId, fromItemId: entry.itemId, planDropped: entry.planDropped };
    default:
      throw new Error(`no event for ${entry.type}`);
  }
}

describe('paged sessions', () => {
  it('a chat the app writes pages like its full replay: while records wait on a full disk, and after a restart', async () => {
    await fc.assert(
      fc.asyncProperty(stepsArbitrary(), fc.nat(3), async (steps, keep) => {
        dir = await mkdtemp(join(tmpdir(), 'waypoint-paged-live-'));
        const fs = faultyFs();
        const first = await start({ keepRecent: keep, fs, retryMs: 5 });
        const { id } = first.chats.newSession();
        const session = first.chats.sessionState(id)!;
        const logged: LogEntry[] = [];
        for (const s of steps) {
          if (s.kind === 'event') {
            // Published as the loop publishes: the chat applies it, persistence logs it.
            first.chats.mirror(id, eventOf(s.entry, id));
            logged.push(s.entry);
          } else if (s.kind === 'run') first.chats.mirror(id, { type: 'run_state', sessionId: id, state: s.running ? { status: 'running', phase: 'requesting' } : { status: 'idle' } });
          else if (s.kind === 'disk') fs.full = s.full;
          else await sleep(s.kind === 'wait' ? 15 : 0);
        }
        first.chats.mirror(id, { type: 'run_state', sessionId: id, state: { status: 'idle' } });
        const expected = fullReplay(logged, id);
        // Streamed text not flushed yet, and records that wait on the full disk, keep their items in
        // memory: nothing is read from a line not written.
        expectSameTranscript(session, expected, expected.length);
        fs.full = false;
        await first.persistence.flush();
        for (let i = 0; i < 100 && session.residentItems > keep + expected.filter((x) => x.kind.startsWith('plan_')).length; i++) await sleep(5);
        expectSameTranscript(session, expected, keep);
        await closeAll();

        const second = await start({ keepRecent: keep });
        expect(second.warnings).toEqual([]);
        expectSameTranscript(second.chats.sessionState(id)!, expected, keep);
        await closeAll();
        await rm(dir, { recursive: true, force: true });
      }),
      { numRuns: 30 },
    );
  }, 120_000);

  it('a process following another process`s chat pages it from that process`s log', async () => {
    dir = await mkdtemp(join(tmpdir(), 'waypoint-paged-follow-'));
    const writer = await start({});
    const { id } = writer.chats.newSession();
    const entries: LogEntry[] = [];
    const publish = (entry: LogEntry) => {
      writer.chats.mirror(id, eventOf(entry, id));
      entries.push(entry);
    };
    const reader = await start({ follow: true, keepRecent: 2 });
    for (let n = 0; n < 12; n++) {
      publish({ type: 'item', item: { id: `a${n}`, createdAt: 'x', kind: 'assistant', text: `reply ${n} `, status: 'streaming' } });
      publish({ type: 'text', itemId: `a${n}`, text: `and more of reply ${n}` });
      if (n % 4 === 0) publish({ type: 'rewind', itemId: `a${n}`, planDropped: false });
      await writer.persistence.flush();
    }
    const expected = fullReplay(entries, id);
    for (let i = 0; i < 200 && reader.chats.sessionState(id)?.itemCount !== expected.length; i++) await sleep(20);
    // Give the follower's last tick time to read the last text too.
    await sleep(600);
    expectSameTranscript(reader.chats.sessionState(id)!, expected, 2);
  });

  it('an edited message keeps the version it replaced, paged from the chat`s own log, shown again whole before and after a restart', async () => {
    dir = await mkdtemp(join(tmpdir(), 'waypoint-paged-versions-'));
    const first = await start({ keepRecent: 2 });
    const { id } = first.chats.newSession();
    for (let n = 0; n < 5; n++) {
      first.chat.sendMessage(id, `Message ${n}`);
      await first.idle(id);
      first.events.splice(0);
    }
    const session = first.chats.sessionState(id)!;
    const before = session.transcript;
    expect(session.residentItems).toBeLessThan(before.length);
    const firstMessage = before.find((i) => i.kind === 'user')!;
    const { itemId: editedId } = await first.chat.reruns.edit(id, firstMessage.id, 'Message 0, edited');
    await first.idle(id);
    expect(first.chats.listSessions()).toHaveLength(1);
    const edited = session.transcript;
    // The first version again: every item as it was, the message now saying it is 1 of 2.
    const tagged = before.map((i) => (i.id === firstMessage.id && i.kind === 'user' ? { ...i, version: { group: firstMessage.id, index: 0, count: 2 } } : i));
    first.chat.reruns.show(id, editedId, 'message', 0);
    await first.persistence.flush();
    expectSameTranscript(session, tagged, 2);
    await closeAll();
    const second = await start({ keepRecent: 2 });
    const restored = second.chats.sessionState(id)!;
    expectSameTranscript(restored, tagged, 2);
    second.chat.reruns.show(id, firstMessage.id, 'message', 1);
    expect(restored.transcript).toEqual(edited);

    // Back and forth again, paged: both versions are kept as shown, so no switch keeps one again.
    const versionRecords = () => readFileSync(second.persistence.logPath(id), 'utf8').split('\n').filter((l) => l.includes('"type":"version"')).length;
    await second.persistence.flush();
    const kept = versionRecords();
    second.chat.reruns.show(id, editedId, 'message', 0);
    second.chat.reruns.show(id, firstMessage.id, 'message', 1);
    second.chat.reruns.show(id, editedId, 'message', 0);
    await second.persistence.flush();
    expect(versionRecords()).toBe(kept);
    await closeAll();
    const third = await start({ keepRecent: 2 });
    expectSameTranscript(third.chats.sessionState(id)!, tagged, 2);
  });

  it('a loaded chat`s API history stays in its log until a message needs it; then it is logged on as before', async () => {
    dir = await mkdtemp(join(tmpdir(), 'waypoint-paged-history-'));
    const first = await start({});
    const { id } = first.chats.newSession();
    for (let n = 0; n < 3; n++) {
      first.chat.sendMessage(id, `Message ${n}`);
      await first.idle(id);
      first.events.splice(0);
    }
    const before = structuredClone(first.chats.sessionState(id)!.history);
    await closeAll();

    const second = await start({});
    const session = second.chats.sessionState(id)!;
    expect(session.historyInMemory).toBe(false);
    second.chats.getSession(id);
    second.chats.renameSession(id, 'Renamed');
    await second.persistence.flush();
    // Opening it and renaming it read nothing of the history.
    expect(session.historyInMemory).toBe(false);
    second.chat.sendMessage(id, 'Message 3');
    await second.idle(id);
    expect(session.history.slice(0, before.length)).toEqual(before);
    const after = structuredClone(session.history);
    expect(after.length).toBeGreaterThan(before.length);
    await closeAll();
    // Read back as what the log held, the history is logged on from where it was (not rewritten whole).
    const records = readLog(join(dir, 'sessions', id, 'events.jsonl')).records;
    const renamed = records.findIndex((r) => r.type === 'summary' && r.session.title === 'Renamed');
    const later = records.slice(renamed).filter((r) => r.type === 'history');
    expect(later.length).toBeGreaterThan(0);
    for (const record of later) expect(record.type === 'history' && record.from).toBeGreaterThanOrEqual(before.length - 1);

    const third = await start({});
    expect(third.chats.sessionState(id)!.history).toEqual(after);
    expect(readLog(join(dir, 'sessions', id, 'events.jsonl')).warnings).toEqual([]);
  });

  it('a deleted chat`s items are not read back: a stale reference gets a notice, never a throw', async () => {
    dir = await mkdtemp(join(tmpdir(), 'waypoint-paged-delete-'));
    const inst = await start({ keepRecent: 1 });
    const { id } = inst.chats.newSession();
    for (let n = 0; n < 4; n++) inst.chats.mirror(id, { type: 'transcript_item', sessionId: id, item: { id: `n${n}`, createdAt: 'x', kind: 'notice', level: 'info', text: `note ${n}` } });
    const session = inst.chats.sessionState(id)!;
    expect(session.residentItems).toBe(1);
    await inst.persistence.deleteSession(id);
    const items = session.itemsBetween(0, 4);
    expect(items.slice(0, 3).map((i) => i.kind === 'notice' && i.code)).toEqual(['unreadable', 'unreadable', 'unreadable']);
    expect(items[3]).toMatchObject({ id: 'n3', text: 'note 3' });
  });

  it('a chat whose process was killed mid-run loads paged as its full replay does, repair included', async () => {
    requireBuiltShell();
    dir = await mkdtemp(join(tmpdir(), 'waypoint-paged-kill-'));
    const planned = await startScriptedServer({ scenario: { ...plansStructured, latencyMs: 25 } });
    try {
      for (const afterMs of [150, 400, 700]) {
        planned.setScenario({ ...plansStructured, latencyMs: 25 });
        const shell = await launch(dir, dir, planned.url, 'sk-ant-test-paged-kill-key');
        const { id } = (await shell.call('newSession', {})) as { id: string };
        await shell.call('sendMessage', { sessionId: id, text: 'Create a structural grid' });
        await sleep(afterMs);
        await kill(shell);
        const path = join(dir, 'sessions', id, 'events.jsonl');
        const full = restoreChat(replay(readLog(path).records)!).session;
        const { session: paged, fixedItems } = loadChat(path, id, () => {}, false, 1)!.restored;
        // The repair's notice gets a new id each time it is made: take the paged chat's.
        const notice = paged.itemsOfKind('notice').find((i) => i.code === 'interrupted');
        const expected = full.transcript.map((i) => (notice && i.kind === 'notice' && i.code === 'interrupted' ? notice : i));
        // What the repair changed is not logged yet (persistence logs it): it stays in memory.
        expectSameTranscript(paged, expected, 1 + fixedItems.length);
      }
    } finally {
      await planned.close();
    }
  }, 60_000);
});
