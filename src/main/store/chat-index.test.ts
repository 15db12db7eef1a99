import { appendFileSync, copyFileSync, existsSync, utimesSync, readdirSync, readFileSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { scripted, startInstance, type Instance } from '../../../test-support/main/persistence-test-kit';
import type { ScriptedServer } from '../../../test-support/scripted-api/server';
import { plansStructured } from '../../../test-support/scenarios/plans-structured';
import { noticeItem } from '../common/transcript-items';
import { INDEX_FILE, type ChatIndex } from './chat-index-file';
import { FILTER_FILE } from './search/search-filter-file';

let dir: string;
let server: ScriptedServer;
const open: Instance[] = [];

async function start(shell: Parameters<typeof startInstance>[4] = {}): Promise<Instance> {
  const instance = await startInstance(dir, server.url, undefined, [], shell);
  open.push(instance);
  return instance;
}

async function close(instance: Instance): Promise<void> {
  open.splice(open.indexOf(instance), 1);
  await instance.close();
}

const indexPath = () => join(dir, 'sessions', INDEX_FILE);
const logPath = (id: string) => join(dir, 'sessions', id, 'events.jsonl');
const readIndexFile = (): ChatIndex => JSON.parse(readFileSync(indexPath(), 'utf8')) as ChatIndex;

/** A chat with `notes` notices in it (written without a run), titled. */
function chatWith(instance: Instance, title: string, notes = 1): string {
  const { id } = instance.chats.newSession();
  for (let i = 0; i < notes; i++) instance.chats.addNotice(id, noticeItem('info', `${title} note ${i}`));
  instance.chats.renameSession(id, title);
  return id;
}

/** What the index says, stamps left out (a rebuilt index stamps the same logs, so only these can differ). */
function listing(index: ChatIndex) {
  return { sessions: index.sessions, logs: Object.fromEntries(Object.entries(index.logs).map(([id, e]) => [id, { ...e }])) };
}

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'waypoint-chat-index-'));
  server = await scripted({ name: 'echo', turns: [], onExhausted: 'echo' });
});
afterEach(async () => {
  for (const i of open.splice(0)) await i.close();
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

describe('the chat index', () => {
  it('is kept up to date as logs are written, and a start lists chats from it without reading their logs', async () => {
    const first = await start();
    const a = chatWith(first, 'Alpha plans', 3);
    const b = chatWith(first, 'Beta budget', 2);
    first.chats.pinSession(a, true);
    await first.persistence.flush();
    const index = readIndexFile();
    expect(index.sessions.map((s) => s.id)).toEqual(first.chats.listSessions().map((s) => s.id));
    expect(index.sessions.find((s) => s.id === a)).toMatchObject({ title: 'Alpha plans', pinned: true });
    const stamp = statSync(logPath(b));
    expect(index.logs[b]).toEqual({ size: stamp.size, mtimeMs: stamp.mtimeMs, runStatus: 'idle', pending: false, items: 2 });
    const list = first.chats.listSessions();
    const transcript = first.chats.getSession(a).transcript;
    expect(transcript).toHaveLength(3);
    await close(first);

    const second = await start();
    expect(second.chats.listSessions()).toEqual(list);
    // Listed, not read: neither chat is in memory until it is used.
    expect(second.chats.sessionInMemory(a)).toBeUndefined();
    expect(second.chats.sessionInMemory(b)).toBeUndefined();
    expect(second.chats.getSession(a).transcript).toEqual(transcript);
    expect(second.chats.sessionInMemory(a)).toBeDefined();
    expect(second.chats.sessionInMemory(b)).toBeUndefined();
    // A chat read on use goes on being written, and the index follows.
    second.chats.renameSession(a, 'Alpha renamed');
    await second.persistence.flush();
    expect(readIndexFile().sessions.find((s) => s.id === a)?.title).toBe('Alpha renamed');
    expect(second.warnings).toEqual([]);
  });

  it('is rebuilt from the logs when it is missing or damaged, and every chat is read', async () => {
    const first = await start();
    const a = chatWith(first, 'Kept one');
    chatWith(first, 'Kept two');
    await first.persistence.flush();
    const built = readIndexFile();
    await close(first);

    for (const damage of [() => rmSync(indexPath()), () => writeFileSync(indexPath(), '{"version":2,"sessions":[{"id":'), () => truncateSync(indexPath(), 7)]) {
      damage();
      const again = await start();
      expect(again.chats.sessionInMemory(a)).toBeDefined();
      await again.persistence.flush();
      expect(listing(readIndexFile())).toEqual(listing(built));
      await close(again);
    }
  });

  it('re-reads a chat whose log another process changed after the index was written (a kill before its index write)', async () => {
    const first = await start();
    const a = chatWith(first, 'Before');
    const b = chatWith(first, 'Untouched');
    await first.persistence.flush();
    await close(first);
    const written = join(dir, 'index-before.json');
    copyFileSync(indexPath(), written);

    // Another process renames the chat; its own index write is then lost (it was killed first).
    const other = await start();
    other.chats.renameSession(a, 'Renamed elsewhere');
    other.chats.addNotice(a, noticeItem('info', 'a note from elsewhere'));
    await close(other);
    copyFileSync(written, indexPath());

    const again = await start();
    expect(again.chats.listSessions().find((s) => s.id === a)?.title).toBe('Renamed elsewhere');
    // Its stamp no longer matched: read at start. The other one's did: only listed.
    expect(again.chats.sessionInMemory(a)).toBeDefined();
    expect(again.chats.sessionInMemory(b)).toBeUndefined();
    expect(again.chats.getSession(a).transcript.at(-1)).toMatchObject({ kind: 'notice', text: 'a note from elsewhere' });
  });

  it('an index from an older Waypoint (version 1) is rebuilt without a warning', async () => {
    const first = await start();
    const a = chatWith(first, 'Old format');
    await first.persistence.flush();
    await close(first);
    writeFileSync(indexPath(), JSON.stringify({ version: 1, sessions: readIndexFile().sessions }));
    const again = await start();
    expect(again.chats.sessionInMemory(a)).toBeDefined();
    expect(again.warnings).toEqual([]);
    await again.persistence.flush();
    expect(readIndexFile().version).toBe(2);
  });

  it('survives a kill mid-write: a torn index and a half-written temp file are rebuilt from the logs', async () => {
    const first = await start();
    const a = chatWith(first, 'Survivor', 2);
    await first.persistence.flush();
    const built = readIndexFile();
    await close(first);
    // What a kill leaves: the rename never happened (a temp file half full), or a non-atomic writer's half file.
    const whole = readFileSync(indexPath());
    writeFileSync(join(dir, 'sessions', `.${INDEX_FILE}.999.abcdef.tmp`), whole.subarray(0, whole.length >> 1));
    writeFileSync(indexPath(), whole.subarray(0, whole.length >> 1));
    const again = await start();
    expect(again.warnings.join('\n')).toMatch(/index was damaged/);
    expect(again.chats.listSessions().map((s) => s.title)).toEqual(['Survivor']);
    expect(again.chats.getSession(a).transcript).toHaveLength(2);
    await again.persistence.flush();
    expect(listing(readIndexFile())).toEqual(listing(built));
    // The temp file is not taken for a chat folder.
    expect(readdirSync(join(dir, 'sessions')).filter((n) => !n.startsWith('.'))).toEqual(expect.arrayContaining([a, INDEX_FILE]));
  });

  it('a chat only listed is found by the sidebar search, and searching does not keep its log in memory', async () => {
    const first = await start();
    const a = chatWith(first, 'Groceries');
    first.chats.addNotice(a, noticeItem('info', 'remember the saffron for the paella'));
    chatWith(first, 'Other things');
    await first.persistence.flush();
    const expected = await first.persistence.search('SAFFRON');
    expect(expected).toHaveLength(1);
    await close(first);

    const again = await start();
    expect(await again.persistence.search('SAFFRON')).toEqual(expected);
    expect(await again.persistence.search('groceries')).toEqual([expect.objectContaining({ snippet: 'Groceries' })]);
    expect(await again.persistence.search('no such words anywhere')).toEqual([]);
    expect(again.chats.sessionInMemory(a)).toBeUndefined();
  });

  it('a listed chat’s log read by one search leaves a filter beside it: the next search skips the log when it cannot hold the text', async () => {
    const first = await start();
    const a = chatWith(first, 'Groceries');
    first.chats.addNotice(a, noticeItem('info', 'remember the saffron for the paella'));
    await first.persistence.flush();
    await close(first);

    const again = await start();
    expect(await again.persistence.search('no such words anywhere')).toEqual([]);
    const filter = join(dir, 'sessions', a, FILTER_FILE);
    expect(existsSync(filter)).toBe(true);
    expect(statSync(filter).size).toBeLessThan(2_048);
    expect(await again.persistence.search('saffron for the')).toEqual([expect.objectContaining({ snippet: expect.stringContaining('saffron for the paella') })]);
    // The log changes and its filter is stamped with it, as if made from it: a search that read
    // the log would find "qqzzxy"; the filter, made from the old text, says it cannot be there.
    writeFileSync(logPath(a), readFileSync(logPath(a), 'utf8').replace('for the paella', 'for the qqzzxy'));
    const stamp = statSync(logPath(a));
    const kept = readFileSync(filter);
    kept.writeDoubleLE(stamp.size, 0);
    kept.writeDoubleLE(stamp.mtimeMs, 8);
    writeFileSync(filter, kept);
    expect(await again.persistence.search('for the qqzzxy')).toEqual([]);
    // Once the log has another stamp the filter is not used: the log is read, and the text found.
    appendFileSync(logPath(a), '');
    utimesSync(logPath(a), stamp.atime, new Date(stamp.mtimeMs + 5_000));
    expect((await again.persistence.search('for the qqzzxy')).map((hit) => hit.session.id)).toEqual([a]);
  });

  it('the sidebar search finds text a listed chat streamed in pieces, the match straddling two of them', async () => {
    const first = await start();
    const a = chatWith(first, 'Streamed');
    await first.persistence.flush();
    await close(first);
    // Streamed text is logged in pieces (`text` records after the item); this reply's pieces split "hello world".
    const lines = readFileSync(logPath(a), 'utf8').trimEnd().split('\n');
    let seq = (JSON.parse(lines.at(-1)!) as { seq: number }).seq;
    const t = new Date().toISOString();
    const records = [
      { seq: ++seq, t, type: 'item', item: { id: 'streamed-reply', createdAt: t, kind: 'assistant', text: '', status: 'done' } },
      { seq: ++seq, t, type: 'text', itemId: 'streamed-reply', text: 'I say hel' },
      { seq: seq + 1, t, type: 'text', itemId: 'streamed-reply', text: 'lo world to you' },
    ];
    writeFileSync(logPath(a), `${[...lines, ...records.map((r) => JSON.stringify(r))].join('\n')}\n`);
    // The index vouches for the log as it is now (as if this process had written those records).
    const index = readIndexFile();
    const stamp = statSync(logPath(a));
    index.logs[a] = { ...index.logs[a]!, size: stamp.size, mtimeMs: stamp.mtimeMs, items: index.logs[a]!.items + 1 };
    writeFileSync(indexPath(), JSON.stringify(index));

    const again = await start();
    expect(again.chats.sessionInMemory(a)).toBeUndefined();
    expect((await again.persistence.search('hello world')).map((hit) => [hit.session.id, hit.snippet])).toEqual([[a, 'I say hello world to you']]);
  });

  it('the plan of a chat only listed is there when asked for before the chat is used (an MCP client continuing it)', async () => {
    const planServer = await scripted(plansStructured);
    try {
      const first = await startInstance(dir, planServer.url);
      open.push(first);
      const { id } = first.chats.newSession();
      first.chat.sendMessage(id, 'Create a structural grid');
      await first.idle(id);
      const plan = first.plans.getPlan(id);
      expect(plan?.steps.length).toBeGreaterThan(0);
      await close(first);
      const again = await start();
      expect(again.chats.sessionInMemory(id)).toBeUndefined();
      expect(again.plans.getPlan(id)).toEqual(plan);
    } finally {
      await planServer.close();
    }
  });

  it('a chat only listed can be deleted, and its folder goes', async () => {
    const first = await start();
    const a = chatWith(first, 'Doomed');
    await first.persistence.flush();
    await close(first);
    const again = await start();
    expect(again.chats.sessionInMemory(a)).toBeUndefined();
    expect(await again.persistence.deleteSession(a)).toBe(true);
    expect(existsSync(join(dir, 'sessions', a))).toBe(false);
    expect(again.chats.listSessions()).toEqual([]);
    expect(readIndexFile().sessions).toEqual([]);
  });

  it('a shell following the folder drops a chat only listed whose folder another process deleted, and reads one whose lock another process takes', async () => {
    const first = await start();
    const gone = chatWith(first, 'Deleted elsewhere');
    const taken = chatWith(first, 'Taken elsewhere', 2);
    await first.persistence.flush();
    await close(first);
    const follower = await start({ follow: true });
    const other = await start();
    expect(follower.chats.sessionInMemory(gone)).toBeUndefined();
    expect(follower.chats.sessionInMemory(taken)).toBeUndefined();
    other.persistence.claim(taken);
    rmSync(join(dir, 'sessions', gone), { recursive: true, force: true });
    const deadline = Date.now() + 10_000;
    while (follower.chats.listSessions().some((s) => s.id === gone) || !follower.chats.sessionInMemory(taken)) {
      if (Date.now() > deadline) throw new Error('the follower never dropped the deleted chat or read the taken one');
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(follower.chats.listSessions().map((s) => s.id)).toEqual([taken]);
    expect(follower.events).toContainEqual({ type: 'session_deleted', sessionId: gone });
    // Read as it stands, and followed from then on: what the other process appends shows here.
    other.chats.addNotice(taken, noticeItem('info', 'appended by the other process'));
    await other.persistence.flush();
    const seen = Date.now() + 10_000;
    while (!follower.chats.wholeTranscript(taken).some((i) => i.kind === 'notice' && i.text === 'appended by the other process')) {
      if (Date.now() > seen) throw new Error('the follower never showed the other process\'s append');
      await new Promise((r) => setTimeout(r, 20));
    }
  });

  it('after any sequence of writes, restarts and lost index writes, the index equals the index rebuilt from the logs', async () => {
    type Op =
      | { kind: 'new'; notes: number }
      | { kind: 'note'; pick: number }
      | { kind: 'rename'; pick: number; title: string }
      | { kind: 'pin'; pick: number; pinned: boolean }
      | { kind: 'delete'; pick: number }
      | { kind: 'restart' }
      /** The index as it is now is kept aside… */
      | { kind: 'snapshot' }
      /** …and a kill loses every index write since: the process stops and the older index is what the next start finds. */
      | { kind: 'kill' };
    const op: fc.Arbitrary<Op> = fc.oneof(
      fc.record({ kind: fc.constant('new' as const), notes: fc.integer({ min: 0, max: 2 }) }),
      fc.record({ kind: fc.constant('note' as const), pick: fc.nat() }),
      fc.record({ kind: fc.constant('rename' as const), pick: fc.nat(), title: fc.string({ minLength: 1, maxLength: 12 }) }),
      fc.record({ kind: fc.constant('pin' as const), pick: fc.nat(), pinned: fc.boolean() }),
      fc.record({ kind: fc.constant('delete' as const), pick: fc.nat() }),
      fc.constant({ kind: 'restart' as const }),
      fc.constant({ kind: 'snapshot' as const }),
      fc.constant({ kind: 'kill' as const }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 10 }), async (ops) => {
        rmSync(join(dir, 'sessions'), { recursive: true, force: true });
        let saved: Buffer | null = null;
        let instance = await start();
        try {
          for (const step of ops) {
            const ids = instance.chats.listSessions().map((s) => s.id);
            const pick = (n: number) => ids[n % ids.length]!;
            if (step.kind === 'new') chatWith(instance, `chat ${ids.length}`, step.notes);
            else if (step.kind === 'restart' || step.kind === 'kill') {
              await close(instance);
              if (step.kind === 'kill' && saved) writeFileSync(indexPath(), saved);
              instance = await start();
            } else if (step.kind === 'snapshot') {
              await instance.persistence.flush();
              saved = readFileSync(indexPath());
            } else if (!ids.length) continue;
            else if (step.kind === 'note') instance.chats.addNotice(pick(step.pick), noticeItem('info', 'more'));
            else if (step.kind === 'rename') instance.chats.renameSession(pick(step.pick), step.title);
            else if (step.kind === 'pin') instance.chats.pinSession(pick(step.pick), step.pinned);
            else await instance.persistence.deleteSession(pick(step.pick));
          }
        } finally {
          await close(instance);
        }
        // One more start on what the sequence left: the index it keeps…
        await close(await start());
        const kept = readIndexFile();
        // …is the one a start without any index builds from the logs alone.
        rmSync(indexPath());
        await close(await start());
        expect(readIndexFile()).toEqual(kept);
      }),
      // The case the property is about, always tried: a change after the index was written, whose index write a kill lost.
      { numRuns: Number(process.env.INDEX_PROPERTY_RUNS ?? 15), examples: [[[{ kind: 'new', notes: 1 }, { kind: 'snapshot' }, { kind: 'rename', pick: 0, title: 'after' }, { kind: 'note', pick: 0 }, { kind: 'kill' }]]] },
    );
  }, 180_000);
});
