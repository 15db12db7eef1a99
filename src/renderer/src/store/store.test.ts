import { describe, expect, it } from 'vitest';
import type { AssistantItem } from '../../../shared/transcript';
import type { SubAgent } from '../../../shared/subagents';
import { MemoryBackend } from '../test-support/memory-backend';
import { plan, step } from '../test-support/fixtures';
import { connectStore } from './connect';
import { createWaypointStore } from './create-store';
import { createDeltaBatcher } from './delta-batcher';
import type { Schedule } from './frame-schedule';
import type { WaypointStore } from './types';

const T = '2025-01-02T00:00:00.000Z';
const assistant = (id: string, text = '', status: AssistantItem['status'] = 'streaming'): AssistantItem => ({
  id,
  kind: 'assistant',
  text,
  status,
  createdAt: T,
});

/** Animation frames the test runs by hand. */
function manualFrames() {
  const frames: Array<() => void> = [];
  const schedule: Schedule = (flush) => {
    frames.push(flush);
    return () => undefined;
  };
  const run = () => frames.splice(0).forEach((f) => f());
  return { schedule, run, frames };
}

const immediately: Schedule = (flush) => (flush(), () => undefined);

async function until(check: () => boolean, ms = 2000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 5));
  }
}

async function connected(backend: MemoryBackend, schedule?: Schedule): Promise<{ store: WaypointStore; off: () => void }> {
  const store = createWaypointStore(backend);
  // Bookkeeping applied as it comes, as these tests read it (its holding is tested on its own below).
  const off = connectStore(backend, store, { schedule: schedule ?? manualFrames().schedule, bookkeepingSchedule: immediately, retryDelayMs: () => 10 });
  await until(() => store.getState().load.status === 'ready');
  // Ready comes with the list; the chat shown is then opened (its snapshot may take a while).
  await until(() => { const id = store.getState().currentSessionId; return !!id && !!store.getState().transcripts[id]; });
  return { store, off };
}

describe('connectStore initial load', () => {
  it('loads app info, settings and sessions, and opens the most recently updated chat', async () => {
    const backend = new MemoryBackend();
    backend.addChat('a', 'Older', { updatedAt: '2025-01-01T00:00:00.000Z' });
    backend.addChat('b', 'Newer', { updatedAt: '2025-01-03T00:00:00.000Z', transcript: [assistant('m1', 'hi', 'done')] });
    const { store, off } = await connected(backend);
    const state = store.getState();
    expect(state.appInfo?.shell).toBe('web');
    expect(state.settingsView?.apiKey.hasApiKey).toBe(true);
    expect(state.sessions.map((s) => s.title)).toEqual(['Newer', 'Older']);
    expect(state.currentSessionId).toBe('b');
    expect(state.transcripts.b?.items[0]).toMatchObject({ text: 'hi' });
    off();
  });

  it('is ready once the list is in, while the chat it opens is still on its way', async () => {
    const backend = new MemoryBackend();
    backend.addChat('a', 'Long chat', { transcript: [assistant('m1', 'hi', 'done')] });
    let release = () => {};
    const held = new Promise<void>((r) => (release = r));
    backend.override('getSession', async () => {
      await held; // a 300-turn chat's log being read
      return { session: backend.chats.get('a')!.summary, transcript: backend.chats.get('a')!.transcript, olderItems: 0, runState: { status: 'idle' }, plan: null };
    });
    const store = createWaypointStore(backend);
    const off = connectStore(backend, store, { schedule: manualFrames().schedule, retryDelayMs: () => 10 });
    await until(() => store.getState().load.status === 'ready');
    expect(store.getState().sessions.map((s) => s.title)).toEqual(['Long chat']);
    expect(store.getState().currentSessionId).toBe('a'); // what is typed now is this chat's draft
    expect(store.getState().transcripts.a).toBeUndefined();
    release();
    await until(() => !!store.getState().transcripts.a);
    expect(store.getState().transcripts.a?.items[0]).toMatchObject({ text: 'hi' });
    off();
  });

  it('a chat that fails to open says so once and loads nothing again: the window stays ready', async () => {
    const backend = new MemoryBackend();
    backend.addChat('a', 'Broken chat');
    backend.override('getSession', () => {
      throw new Error('The chat could not be read.');
    });
    const store = createWaypointStore(backend);
    const off = connectStore(backend, store, { schedule: manualFrames().schedule, retryDelayMs: () => 10 });
    await until(() => store.getState().lastError !== null);
    expect(store.getState().lastError).toContain('The chat could not be read.');
    await new Promise((r) => setTimeout(r, 100)); // ten retry delays
    expect(store.getState().load.status).toBe('ready');
    expect(backend.log.filter((c) => c.name === 'listSessions')).toHaveLength(1);
    off();
  });

  it('creates a chat when there is none', async () => {
    const backend = new MemoryBackend();
    const { store, off } = await connected(backend);
    expect(store.getState().sessions).toHaveLength(1);
    expect(store.getState().currentSessionId).toBe(store.getState().sessions[0]?.id);
    expect(backend.log.some((c) => c.name === 'newSession')).toBe(true);
    off();
  });

  it('reports the backend unreachable and retries until it answers', async () => {
    const backend = new MemoryBackend();
    let failures = 2;
    backend.override('getAppInfo', () => {
      if (failures-- > 0) throw new Error('connect ECONNREFUSED');
      return { shell: 'web', version: '1', workspace: '/tmp/ws' };
    });
    const store = createWaypointStore(backend);
    const off = connectStore(backend, store, { retryDelayMs: () => 20 });
    await until(() => store.getState().load.status === 'unreachable');
    const load = store.getState().load;
    expect(load.status === 'unreachable' && load.message).toContain("Can't reach Waypoint's backend");
    await until(() => store.getState().load.status === 'ready');
    expect(store.getState().appInfo?.workspace).toBe('/tmp/ws');
    off();
  });
});

describe('chat events', () => {
  it('upserts items by id and appends deltas, coalesced to one update per frame', async () => {
    const backend = new MemoryBackend();
    backend.addChat('s1', 'Chat');
    const frames = manualFrames();
    const { store, off } = await connected(backend, frames.schedule);
    let updates = 0;
    const unsub = store.subscribe(() => updates++);

    backend.emit({ type: 'transcript_item', sessionId: 's1', item: assistant('m1') });
    backend.emit({ type: 'message_delta', sessionId: 's1', itemId: 'm1', text: 'Hel' });
    backend.emit({ type: 'message_delta', sessionId: 's1', itemId: 'm1', text: 'lo ' });
    backend.emit({ type: 'message_delta', sessionId: 's1', itemId: 'm1', text: 'world' });
    expect(store.getState().transcripts.s1?.items[0]).toMatchObject({ text: '' });
    const before = updates;
    frames.run();
    expect(updates - before).toBe(1);
    expect(store.getState().transcripts.s1?.items[0]).toMatchObject({ text: 'Hello world', status: 'streaming' });

    // An upsert replaces the item in place rather than adding another.
    backend.emit({ type: 'transcript_item', sessionId: 's1', item: assistant('m1', 'Hello world!', 'done') });
    expect(store.getState().transcripts.s1?.items).toHaveLength(1);
    expect(store.getState().transcripts.s1?.items[0]).toMatchObject({ text: 'Hello world!', status: 'done' });
    unsub();
    off();
  });

  it("text streaming in several chats at once (one in view, the others opened before) reaches the store in one update per frame, each chat's text whole", async () => {
    const backend = new MemoryBackend();
    for (const id of ['s1', 's2', 's3']) backend.addChat(id, `Chat ${id}`);
    const frames = manualFrames();
    const { store, off } = await connected(backend, frames.schedule);
    // Visited chats keep their transcripts in the store, so their text keeps arriving there.
    for (const id of ['s1', 's2', 's3']) await store.getState().openSession(id);
    for (const id of ['s1', 's2', 's3']) backend.emit({ type: 'transcript_item', sessionId: id, item: assistant(`m-${id}`) });
    let updates = 0;
    const unsub = store.subscribe(() => updates++);
    for (const piece of ['One ', 'two ', 'three']) for (const id of ['s1', 's2', 's3']) backend.emit({ type: 'message_delta', sessionId: id, itemId: `m-${id}`, text: piece });
    frames.run();
    expect(updates).toBe(1);
    for (const id of ['s1', 's2', 's3']) expect(store.getState().transcripts[id]?.items.at(-1)).toMatchObject({ id: `m-${id}`, text: 'One two three' });
    unsub();
    off();
  });

  it('applies held deltas before the next event, so message_done sees the whole text', async () => {
    const backend = new MemoryBackend();
    backend.addChat('s1', 'Chat');
    const { store, off } = await connected(backend);
    backend.emit({ type: 'transcript_item', sessionId: 's1', item: assistant('m1') });
    backend.emit({ type: 'message_delta', sessionId: 's1', itemId: 'm1', text: 'All done.' });
    backend.emit({ type: 'message_done', sessionId: 's1', itemId: 'm1', stopReason: 'end_turn' });
    expect(store.getState().transcripts.s1?.items[0]).toMatchObject({ text: 'All done.', status: 'done' });
    expect(store.getState().announcement).toBe('Claude replied.');
    off();
  });

  it('the live status says what is true: working while Claude works, waiting for you on a prompt, replied only when the turn ended', async () => {
    const backend = new MemoryBackend();
    backend.addChat('s1', 'Chat');
    const { store, off } = await connected(backend);
    const said = () => store.getState().announcement;
    backend.emit({ type: 'run_state', sessionId: 's1', state: { status: 'running', phase: 'requesting' } });
    expect(said()).toBe('Claude is working.');
    // A reply that asks for tools is not the end of the turn.
    backend.emit({ type: 'transcript_item', sessionId: 's1', item: assistant('m1') });
    backend.emit({ type: 'message_delta', sessionId: 's1', itemId: 'm1', text: 'Let me edit that.' });
    backend.emit({ type: 'message_done', sessionId: 's1', itemId: 'm1', stopReason: 'tool_use' });
    backend.emit({ type: 'run_state', sessionId: 's1', state: { status: 'running', phase: 'tools' } });
    expect(said()).toBe('Claude is working.');
    backend.emit({ type: 'run_state', sessionId: 's1', state: { status: 'awaiting_approval', requestId: 'r1' } });
    expect(said()).toBe('Waiting for you: Claude asks to run a tool. Approve or deny it.');
    backend.emit({ type: 'run_state', sessionId: 's1', state: { status: 'running', phase: 'tools' } });
    expect(said()).toBe('Claude is working.');
    backend.emit({ type: 'run_state', sessionId: 's1', state: { status: 'awaiting_question', requestId: 'q1' } });
    expect(said()).toBe('Waiting for you: Claude asks you a question.');
    backend.emit({ type: 'run_state', sessionId: 's1', state: { status: 'awaiting_escalation', requestId: 'e1' } });
    expect(said()).toBe('Waiting for you: a step needs your decision.');
    backend.emit({ type: 'run_state', sessionId: 's1', state: { status: 'running', phase: 'requesting' } });
    backend.emit({ type: 'transcript_item', sessionId: 's1', item: assistant('m2') });
    backend.emit({ type: 'message_delta', sessionId: 's1', itemId: 'm2', text: 'Done.' });
    backend.emit({ type: 'message_done', sessionId: 's1', itemId: 'm2', stopReason: 'end_turn' });
    expect(said()).toBe('Claude is working.');
    backend.emit({ type: 'run_state', sessionId: 's1', state: { status: 'idle' } });
    expect(said()).toBe('Claude replied.');
    off();
  });

  it('announces a stop when main has already upserted the stopped item before message_done', async () => {
    const backend = new MemoryBackend();
    backend.addChat('s1', 'Chat');
    const { store, off } = await connected(backend);
    backend.emit({ type: 'transcript_item', sessionId: 's1', item: assistant('m1') });
    backend.emit({ type: 'message_delta', sessionId: 's1', itemId: 'm1', text: 'Part' });
    backend.emit({ type: 'transcript_item', sessionId: 's1', item: assistant('m1', 'Part', 'stopped') });
    backend.emit({ type: 'message_done', sessionId: 's1', itemId: 'm1', stopReason: null });
    expect(store.getState().transcripts.s1?.items[0]).toMatchObject({ text: 'Part', status: 'stopped' });
    expect(store.getState().announcement).toBe('Claude stopped.');
    off();
  });

  it('tracks run state per chat and errors for the current chat', async () => {
    const backend = new MemoryBackend();
    backend.addChat('s1', 'Chat');
    const { store, off } = await connected(backend);
    backend.emit({ type: 'run_state', sessionId: 's1', state: { status: 'running', phase: 'streaming' } });
    expect(store.getState().runStates.s1).toEqual({ status: 'running', phase: 'streaming' });
    backend.emit({ type: 'error', sessionId: 'other', message: 'not ours' });
    expect(store.getState().lastError).toBeNull();
    backend.emit({ type: 'error', sessionId: 's1', message: 'Rate limited' });
    expect(store.getState().lastError).toBe('Rate limited');
    off();
  });
});

const CHANGE = { kind: 'planning', by: 'claude', summary: 'Updated plan' } as const;

describe('plans', () => {
  it('drops plan events whose version is not newer than the held one', async () => {
    const backend = new MemoryBackend();
    backend.addChat('s1', 'Chat');
    const { store, off } = await connected(backend);
    const v2 = plan([step(1, 'Read', 'completed'), step(2, 'Write', 'in_progress')], { version: 2 });
    const v1 = plan([step(1, 'Read', 'in_progress')], { version: 1 });
    backend.emit({ type: 'plan_updated', sessionId: 's1', change: CHANGE, plan: v2 });
    backend.emit({ type: 'plan_updated', sessionId: 's1', change: CHANGE, plan: v1 });
    backend.emit({ type: 'plan_updated', sessionId: 's1', change: CHANGE, plan: { ...v2, goal: 'duplicate' } });
    expect(store.getState().plans.s1?.version).toBe(2);
    expect(store.getState().plans.s1?.goal).toBe('Ship the feature');
    off();
  });

  it('keeps a newer plan from an event when an older snapshot arrives after it', async () => {
    const backend = new MemoryBackend();
    backend.addChat('s1', 'Chat', { plan: plan([step(1, 'Old')], { version: 1 }) });
    const { store, off } = await connected(backend);
    backend.emit({ type: 'plan_updated', sessionId: 's1', change: CHANGE, plan: plan([step(1, 'New')], { version: 3 }) });
    await store.getState().openSession('s1'); // snapshot still says version 1
    expect(store.getState().plans.s1?.steps[0]?.title).toBe('New');
    off();
  });

  it('holds one plan per chat, and switching chats shows each chat its own plan', async () => {
    const backend = new MemoryBackend();
    backend.addChat('a', 'A', { updatedAt: '2025-01-03T00:00:00.000Z', plan: plan([step(1, 'Plan A step')], { id: 'pa' }) });
    backend.addChat('b', 'B', { updatedAt: '2025-01-01T00:00:00.000Z' });
    const { store, off } = await connected(backend);
    const current = () => {
      const s = store.getState();
      return s.currentSessionId ? s.plans[s.currentSessionId] : undefined;
    };
    expect(current()?.id).toBe('pa');
    backend.emit({ type: 'plan_updated', sessionId: 'b', change: CHANGE, plan: plan([step(1, 'Plan B step')], { id: 'pb' }) });
    expect(current()?.id).toBe('pa');
    await store.getState().openSession('b');
    expect(current()?.id).toBe('pb');
    await store.getState().openSession('a');
    expect(current()?.id).toBe('pa');
    off();
  });
});

/** Chat s1 opened, with hand-run frames for the batchers and for what the bookkeeping batcher holds. */
async function connectedHeld() {
  const backend = new MemoryBackend();
  backend.addChat('s1', 'Chat');
  const store = createWaypointStore(backend);
  const frames = manualFrames();
  const bookkeepingFrames = manualFrames();
  const off = connectStore(backend, store, { schedule: frames.schedule, bookkeepingSchedule: bookkeepingFrames.schedule, retryDelayMs: () => 10 });
  await until(() => !!store.getState().transcripts.s1);
  return { backend, store, frames, bookkeepingFrames, off };
}

describe("a reply's bookkeeping", () => {
  // Main sends session_updated and run_state just ahead of the reply's plan change; they go into
  // the store together with it (one store update, one React commit), in order, none lost.
  it('holds session_updated and run_state until the next event, applies them before it in order, and flushes them before the next frame', async () => {
    const { backend, store, frames, bookkeepingFrames, off } = await connectedHeld();
    const seen: string[] = [];
    const unsubscribe = store.subscribe((state, before) => {
      const phase = (r: typeof state.runStates.s1) => (r?.status === 'running' ? r.phase : r?.status);
      if (state.runStates.s1 !== before.runStates.s1) seen.push(`run:${phase(state.runStates.s1)}`);
      if (state.sessions[0]?.title !== before.sessions[0]?.title) seen.push(`session:${state.sessions[0]?.title}`);
      if (state.plans.s1 !== before.plans.s1) seen.push(`plan:v${state.plans.s1?.version}`);
    });
    const summary = store.getState().sessions[0]!;

    backend.emit({ type: 'run_state', sessionId: 's1', state: { status: 'running', phase: 'streaming' } });
    backend.emit({ type: 'session_updated', session: { ...summary, title: 'Costed' } });
    backend.emit({ type: 'run_state', sessionId: 's1', state: { status: 'running', phase: 'tools' } });
    expect(seen).toEqual([]); // held: nothing rendered yet

    backend.emit({ type: 'plan_updated', sessionId: 's1', change: CHANGE, plan: plan([step(1, 'Read', 'in_progress')], { version: 1 }) });
    // In the plan's own task: everything before it, in arrival order, then the plan.
    expect(seen).toEqual(['run:streaming', 'session:Costed', 'run:tools', 'plan:v1']);

    backend.emit({ type: 'run_state', sessionId: 's1', state: { status: 'running', phase: 'requesting' } });
    expect(seen).toHaveLength(4);
    bookkeepingFrames.run(); // nothing came after it: it goes in before the frame paints
    expect(seen.at(-1)).toBe('run:requesting');

    // A plan still held by the plan batcher (a second one in the same frame) goes before the
    // bookkeeping that came after it, and that before the next plan.
    backend.emit({ type: 'plan_updated', sessionId: 's1', change: CHANGE, plan: plan([step(1, 'Read', 'completed')], { version: 2 }) });
    backend.emit({ type: 'run_state', sessionId: 's1', state: { status: 'running', phase: 'tools' } });
    backend.emit({ type: 'plan_updated', sessionId: 's1', change: CHANGE, plan: plan([step(1, 'Read', 'completed'), step(2, 'Write', 'in_progress')], { version: 3 }) });
    backend.emit({ type: 'run_state', sessionId: 's1', state: { status: 'idle' } });
    backend.emit({ type: 'error', sessionId: 's1', message: 'Rate limited' });
    frames.run();
    bookkeepingFrames.run();
    expect(seen.slice(5)).toEqual(['plan:v2', 'run:tools', 'plan:v3', 'run:idle']);
    expect(store.getState().lastError).toBe('Rate limited');
    expect(store.getState().plans.s1?.version).toBe(3);
    unsubscribe();
    off();
  });
});

describe("a sub-agent's card lines", () => {
  // Each plan change of a sub-agent is a line of its card and a new snapshot (its plan in it). The
  // lines went into the store each in its own task (its own React commit), and the panel's
  // snapshot waited behind them; held as the reply's bookkeeping is, they go in with the snapshot.
  it('are held until the next event and applied right before it, in order, or before the next frame', async () => {
    const { backend, store, bookkeepingFrames, off } = await connectedHeld();
    const agent: SubAgent = { id: 'a1', parentToolUseId: 'toolu_a1', title: 'Check the notes', depth: 1, stepId: null, status: 'working', plan: null };
    backend.emit({ type: 'subagent_updated', sessionId: 's1', subagent: agent });
    const seen: string[] = [];
    const unsubscribe = store.subscribe((state, before) => {
      const now = state.subagents.s1?.[0];
      const then = before.subagents.s1?.[0];
      if (now?.transcript !== then?.transcript) seen.push(`lines:${(now?.transcript ?? []).map((l) => l.text).join('|')}`);
      if (now?.result !== then?.result) seen.push(`snapshot:${now?.result}`);
    });

    backend.emit({ type: 'subagent_line', sessionId: 's1', agentId: 'a1', line: { kind: 'plan', text: 'Started step 1' } });
    backend.emit({ type: 'subagent_line', sessionId: 's1', agentId: 'a1', line: { kind: 'plan', text: 'Completed step 1' } });
    expect(seen).toEqual([]); // held: nothing rendered yet
    backend.emit({ type: 'subagent_updated', sessionId: 's1', subagent: { ...agent, result: 'step 1 done' } });
    // In the snapshot's own task: the lines first, in arrival order, then the snapshot.
    expect(seen).toEqual(['lines:Started step 1', 'lines:Started step 1|Completed step 1', 'snapshot:step 1 done']);

    backend.emit({ type: 'subagent_line', sessionId: 's1', agentId: 'a1', line: { kind: 'message', text: 'All read.' } });
    expect(seen).toHaveLength(3);
    bookkeepingFrames.run(); // nothing came after it: it goes in before the frame paints
    expect(seen.at(-1)).toBe('lines:Started step 1|Completed step 1|All read.');
    unsubscribe();
    off();
  });
});

describe('user actions', () => {
  it('sends a message and reports a refusal from main without throwing', async () => {
    const backend = new MemoryBackend();
    backend.addChat('s1', 'Chat');
    const { store, off } = await connected(backend);
    expect(await store.getState().sendMessage('Hello')).toEqual({ ok: true });
    expect(backend.chats.get('s1')?.transcript.at(-1)).toMatchObject({ kind: 'user', text: 'Hello' });

    const refused = await store.getState().sendMessage('   ');
    expect(refused.ok).toBe(false);
    expect(store.getState().composerError).toContain('Message is empty');
    off();
  });

  it('new chat creates a session in main and makes it current', async () => {
    const backend = new MemoryBackend();
    backend.addChat('s1', 'Chat');
    const { store, off } = await connected(backend);
    await store.getState().newChat();
    const id = store.getState().currentSessionId;
    expect(id).not.toBe('s1');
    expect(backend.chats.has(id ?? '')).toBe(true);
    expect(store.getState().sessions.map((s) => s.id)).toContain(id);
    off();
  });

  it('saves settings and shows validation errors from main', async () => {
    const backend = new MemoryBackend();
    const { store, off } = await connected(backend);
    expect(await store.getState().saveSettings({ maxRetries: 4 })).toEqual({ ok: true });
    expect(store.getState().settingsView?.settings.maxRetries).toBe(4);
    const bad = await store.getState().saveSettings({ maxRetries: 99 });
    expect(bad.ok).toBe(false);
    expect(!bad.ok && bad.message).toMatch(/maxRetries/);
    expect(store.getState().settingsView?.settings.maxRetries).toBe(4);
    off();
  });
});

describe('createDeltaBatcher', () => {
  it('keeps interleaved streams apart and in order', () => {
    const applied: string[] = [];
    const frames = manualFrames();
    const batcher = createDeltaBatcher((batch) => applied.push(batch.map(({ sessionId, itemId, text }) => `${sessionId}/${itemId}:${text}`).join(' ')), frames.schedule);
    batcher.push('s1', 'a', 'x');
    batcher.push('s2', 'b', 'y');
    batcher.push('s1', 'a', 'z');
    expect(frames.frames).toHaveLength(1);
    frames.run();
    // One batch for the frame, each stream joined and in the order it first came.
    expect(applied).toEqual(['s1/a:xz s2/b:y']);
    batcher.push('s1', 'a', 'again');
    batcher.dispose();
    frames.run();
    expect(applied).toHaveLength(1);
  });
});
