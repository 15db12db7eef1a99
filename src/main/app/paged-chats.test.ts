import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startScriptedServer, type ScriptedServer } from '../../../test-support/scripted-api/server';
import type { ScriptedTurn } from '../../../test-support/scripted-api/scenario';
import { startBothShells, type BothShells } from '../../../test-support/main/both-shells';
import type { CallOutput, CallResult, WaypointEvent } from '../../shared/contract';
import type { TranscriptItem } from '../../shared/transcript';
import { PAGE_SIZE } from '../chats/transcript-pages';

// Paged sessions (issue 15 item 2) over the real services, asked through the Electron bridge's
// forwarding half and the web shell's WebSocket: a chat of more than a page opens with its last
// page, pages back to its first item, its live events say where they land, and a page asked from
// an item an edit cut is refused.

let api: ScriptedServer;
let shells: BothShells;
let sessionId: string;

const router = (name: string, input: unknown) => shells.services.router(name, input);
const bothShells = <T>(name: string, input: unknown) => shells.both<T>(name, input);

async function value<T>(result: Promise<CallResult<T>>): Promise<T> {
  const got = await result;
  if (!got.ok) throw new Error(got.error.message);
  return got.value;
}

/** Waits until the chat is idle with `count` finished replies. */
async function waitForReplies(count: number) {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const got = await value(router('getSession', { sessionId }) as Promise<CallResult<CallOutput<'getSession'>>>);
    const whole = await wholeTranscript();
    const done = whole.filter((i) => i.kind === 'assistant' && i.status === 'done' && i.text.startsWith('Reply ')).length;
    if (done >= count && got.runState.status === 'idle') return;
    if (Date.now() > deadline) throw new Error(`${done} replies finished, expected ${count}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The whole chat, paged back from its end as the renderer does. */
async function wholeTranscript(ask = router): Promise<TranscriptItem[]> {
  const opened = await value(ask('getSession', { sessionId }) as Promise<CallResult<CallOutput<'getSession'>>>);
  const items = [...opened.transcript];
  let older = opened.olderItems;
  while (older > 0) {
    const page = await value(ask('getTranscriptPage', { sessionId, beforeItemId: items[0]!.id }) as Promise<CallResult<CallOutput<'getTranscriptPage'>>>);
    expect(page.items.length).toBeGreaterThan(0);
    expect(page.olderItems + page.items.length).toBe(older);
    items.unshift(...page.items);
    older = page.olderItems;
  }
  return items;
}

/** A user message Claude answers with `tools` tool turns (a directory listing each), then a reply. */
const toolTurns = (tools: number, reply: string): ScriptedTurn[] => [
  ...Array.from({ length: tools }, (_, n): ScriptedTurn => ({ kind: 'tool_use', text: `Step ${n + 1}.`, calls: [{ name: 'list_directory', input: { path: '.' } }], delayMs: 0, chunkChars: 1_000 })),
  { kind: 'text', text: reply, delayMs: 0, chunkChars: 1_000 },
];

beforeAll(async () => {
  // Two messages of 40 and 30 tool turns: ≈ 144 items, more than a page of 100.
  api = await startScriptedServer({ scenario: { name: 'paged', turns: [...toolTurns(40, 'Reply 1.'), ...toolTurns(30, 'Reply 2.'), { kind: 'text', text: 'Reply 3: streamed in pieces.', chunkChars: 4, delayMs: 2 }], onExhausted: 'echo' } });
  shells = await startBothShells('waypoint-paged-', api.url);
  sessionId = (await value(router('newSession', {}) as Promise<CallResult<{ id: string }>>)).id;
  for (const [n, text] of ['Walk the project', 'Once more, the tests'].entries()) {
    await value(router('sendMessage', { sessionId, text }));
    await waitForReplies(n + 1);
  }
}, 120_000);

afterAll(async () => {
  await shells?.close();
  await api?.close();
});

describe('paged sessions through both shells', () => {
  it('opens a long chat with its last page; pages back from it give the whole chat, each item once, in order', async () => {
    const opened = await value(bothShells<CallOutput<'getSession'>>('getSession', { sessionId }));
    expect(opened.transcript.length).toBeLessThanOrEqual(PAGE_SIZE.maxItems);
    expect(opened.olderItems).toBeGreaterThan(0);
    expect(opened.transcript.at(-1)).toMatchObject({ kind: 'assistant', text: 'Reply 2.' });

    const whole = await wholeTranscript((name, input) => bothShells(name, input));
    expect(whole).toHaveLength(opened.olderItems + opened.transcript.length);
    expect(new Set(whole.map((i) => i.id)).size).toBe(whole.length);
    expect(whole[0]).toMatchObject({ kind: 'user', text: 'Walk the project' });
    expect(whole.slice(-opened.transcript.length)).toEqual(opened.transcript);
    // Home: everything above in one page.
    const all = await value(bothShells<CallOutput<'getTranscriptPage'>>('getTranscriptPage', { sessionId, beforeItemId: opened.transcript[0]!.id, limit: opened.olderItems }));
    expect(all).toEqual({ items: whole.slice(0, opened.olderItems), olderItems: 0 });
    // Find in chat: down to an item, however far past the page it is.
    const through = await value(bothShells<CallOutput<'getTranscriptPage'>>('getTranscriptPage', { sessionId, beforeItemId: opened.transcript[0]!.id, limit: 5, throughItemId: whole[1]!.id }));
    expect(through).toEqual({ items: whole.slice(1, opened.olderItems), olderItems: 1 });
  });

  it('sends each live event with where it lands: an item its position, streamed text its offset in the reply', async () => {
    const before = (await wholeTranscript()).length;
    const from = shells.frames.frames.length;
    await value(router('sendMessage', { sessionId, text: 'And now a short one' }));
    await waitForReplies(3);
    const events = shells.frames.frames
      .slice(from)
      .flatMap((f) => (f.kind === 'event' && 'sessionId' in f.event && f.event.sessionId === sessionId ? [f.event] : []));
    const items = events.filter((e): e is Extract<WaypointEvent, { type: 'transcript_item' }> => e.type === 'transcript_item');
    const whole = await wholeTranscript();
    expect(items.length).toBeGreaterThan(0);
    for (const event of items) expect(event.index, `${event.item.kind} ${event.item.id}`).toBe(whole.findIndex((i) => i.id === event.item.id));
    expect(items[0]).toMatchObject({ item: { kind: 'user', text: 'And now a short one' }, index: before });
    const reply = whole.at(-1)!;
    const deltas = events.filter((e): e is Extract<WaypointEvent, { type: 'message_delta' }> => e.type === 'message_delta' && e.itemId === reply.id);
    expect(deltas.length).toBeGreaterThan(0);
    let at = 0;
    for (const delta of deltas) {
      expect(delta.offset).toBe(at);
      at += delta.text.length;
    }
    expect(at).toBe('Reply 3: streamed in pieces.'.length);
  });

  it('refuses a page asked from an item an edit cut, saying so, and the cut says where it was', async () => {
    const whole = await wholeTranscript();
    const second = whole.findIndex((i) => i.kind === 'user' && i.text === 'Once more, the tests');
    const later = whole[second + 5]!;
    const from = shells.frames.frames.length;
    await value(router('editMessage', { sessionId, itemId: whole[second]!.id, text: 'Once more, differently' }));
    const cut = await shells.frames.next((f) => f.kind === 'event' && f.event.type === 'chat_rewound' && f.event.sessionId === sessionId);
    expect(shells.frames.frames.indexOf(cut)).toBeGreaterThanOrEqual(from);
    expect(cut).toMatchObject({ event: { fromItemId: whole[second]!.id, index: second } });
    const refused = await bothShells('getTranscriptPage', { sessionId, beforeItemId: later.id });
    expect(refused).toMatchObject({ ok: false, error: { code: 'not_found', message: expect.stringMatching(/gone.*Open the chat again/) } });
  });
});
