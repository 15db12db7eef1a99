import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { TranscriptItem } from '../../../shared/transcript';
import { type TranscriptWindow, withDelta, withItem, withOlderPage, withRewind, withSnapshot } from './transcript-window';

/**
 * Any interleaving of main's changes, the events they send, snapshots and older pages gives the
 * renderer exactly the end of main's transcript. The channel is ordered as both shells order it
 * (a response goes out after every event main sent before computing it, docs/contract.md §1); the
 * renderer holds deltas and plan updates for a frame as connect.ts does, so responses overtake
 * them; requests reach main and are answered at any later point.
 */

const at = '2026-01-01T00:00:00.000Z';

type MainOp =
  | { op: 'user'; text: string }
  | { op: 'reply' }
  | { op: 'delta'; pick: number; text: string }
  | { op: 'update'; pick: number; text: string }
  | { op: 'rewind'; pick: number }
  | { op: 'plan' };
type Step =
  | { step: 'main'; change: MainOp }
  | { step: 'open' }
  | { step: 'older'; limit: number }
  | { step: 'serve' }
  | { step: 'deliver' }
  | { step: 'frame' }
  /** The network catches up: every request is answered and everything sent arrives. */
  | { step: 'settle' };

type Event =
  | { type: 'item'; item: TranscriptItem; index: number }
  | { type: 'delta'; itemId: string; text: string; offset: number }
  | { type: 'rewind'; fromItemId: string; index: number }
  | { type: 'plan'; version: number; item: TranscriptItem };
type Request = { kind: 'open' } | { kind: 'older'; beforeItemId: string; limit: number };
type Response =
  | { type: 'snapshot'; transcript: TranscriptItem[]; olderItems: number; planVersion: number }
  | { type: 'page'; beforeItemId: string; items: TranscriptItem[]; olderItems: number }
  | { type: 'refused' };
type Message = Event | Response;

const text = fc.string({ maxLength: 6 });
const pick = fc.nat(1000);
const mainOp: fc.Arbitrary<MainOp> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ op: fc.constant('user' as const), text }) },
  { weight: 3, arbitrary: fc.record({ op: fc.constant('reply' as const) }) },
  { weight: 5, arbitrary: fc.record({ op: fc.constant('delta' as const), pick, text }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('update' as const), pick, text }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('rewind' as const), pick }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('plan' as const) }) },
);
const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 8, arbitrary: fc.record({ step: fc.constant('main' as const), change: mainOp }) },
  { weight: 1, arbitrary: fc.record({ step: fc.constant('open' as const) }) },
  { weight: 3, arbitrary: fc.record({ step: fc.constant('older' as const), limit: fc.integer({ min: 1, max: 4 }) }) },
  { weight: 3, arbitrary: fc.record({ step: fc.constant('serve' as const) }) },
  { weight: 10, arbitrary: fc.record({ step: fc.constant('deliver' as const) }) },
  { weight: 2, arbitrary: fc.record({ step: fc.constant('frame' as const) }) },
  { weight: 1, arbitrary: fc.record({ step: fc.constant('settle' as const) }) },
);

/** Main's chat: the transcript of record, its plan's version, and what it sends. */
class Main {
  items: TranscriptItem[] = [];
  planVersion = 0;
  readonly channel: Message[] = [];
  readonly requests: Request[] = [];
  private next = 0;

  constructor(private readonly pageSize: number) {}

  apply(change: MainOp): void {
    const { items } = this;
    switch (change.op) {
      case 'user':
      case 'reply': {
        const id = `i${this.next++}`;
        const item: TranscriptItem = change.op === 'user' ? { id, kind: 'user', text: change.text, createdAt: at } : { id, kind: 'assistant', text: '', status: 'streaming', createdAt: at };
        items.push(item);
        this.channel.push({ type: 'item', item, index: items.length - 1 });
        return;
      }
      case 'delta': {
        const replies = items.flatMap((item, index) => (item.kind === 'assistant' ? [index] : []));
        if (!replies.length) return;
        const index = replies[change.pick % replies.length]!;
        const reply = items[index] as Extract<TranscriptItem, { kind: 'assistant' }>;
        this.channel.push({ type: 'delta', itemId: reply.id, text: change.text, offset: reply.text.length });
        items[index] = { ...reply, text: reply.text + change.text };
        return;
      }
      case 'update': {
        if (!items.length) return;
        const index = change.pick % items.length;
        const item = { ...items[index]!, text: `${change.text}'` } as TranscriptItem;
        items[index] = item;
        this.channel.push({ type: 'item', item, index });
        return;
      }
      case 'rewind': {
        if (!items.length) return;
        const index = change.pick % items.length;
        const fromItemId = items[index]!.id;
        this.items = items.slice(0, index);
        this.channel.push({ type: 'rewind', fromItemId, index });
        return;
      }
      case 'plan': {
        this.planVersion++;
        const item: TranscriptItem = { id: `plan:v${this.planVersion}`, kind: 'plan_change', text: `change ${this.planVersion}`, version: this.planVersion, createdAt: at };
        items.push(item);
        this.channel.push({ type: 'plan', version: this.planVersion, item });
        return;
      }
    }
  }

  /** Answers the oldest request, after everything sent so far (the pump flushes before a result). */
  serve(): void {
    const request = this.requests.shift();
    if (!request) return;
    if (request.kind === 'open') {
      const olderItems = Math.max(0, this.items.length - this.pageSize);
      this.channel.push({ type: 'snapshot', transcript: this.items.slice(olderItems), olderItems, planVersion: this.planVersion });
      return;
    }
    const end = this.items.findIndex((item) => item.id === request.beforeItemId);
    if (end < 0) {
      this.channel.push({ type: 'refused' });
      return;
    }
    const start = Math.max(0, end - request.limit);
    this.channel.push({ type: 'page', beforeItemId: request.beforeItemId, items: this.items.slice(start, end), olderItems: start });
  }
}

/** The renderer's side: the window, the plan version it holds, and connect.ts's two batchers. */
class Renderer {
  window: TranscriptWindow | undefined;
  planVersion = 0;
  private deltas = new Map<string, { text: string; offset: number }>();
  private plans: Array<Extract<Event, { type: 'plan' }>> = [];

  receive(message: Message): void {
    switch (message.type) {
      case 'delta': {
        const held = this.deltas.get(message.itemId);
        this.deltas.set(message.itemId, held ? { ...held, text: held.text + message.text } : { text: message.text, offset: message.offset });
        return;
      }
      case 'plan':
        this.flushDeltas();
        this.plans.push(message);
        return;
      case 'item':
      case 'rewind':
        this.frame();
        if (!this.window) return;
        this.window = message.type === 'item' ? withItem(this.window, message.item, message.index) : withRewind(this.window, message.fromItemId, message.index);
        return;
      // Responses are not events: they overtake what the batchers hold.
      case 'snapshot':
        this.window = withSnapshot(this.window, message);
        this.planVersion = Math.max(this.planVersion, message.planVersion);
        return;
      case 'page':
        if (this.window) this.window = withOlderPage(this.window, message.beforeItemId, message);
        return;
      case 'refused':
        return;
    }
  }

  frame(): void {
    this.flushDeltas();
    for (const plan of this.plans.splice(0)) {
      // plan-slice: only a newer plan counts, and its line joins a chat that is loaded.
      if (plan.version <= this.planVersion) continue;
      this.planVersion = plan.version;
      if (this.window) this.window = withItem(this.window, plan.item);
    }
  }

  private flushDeltas(): void {
    const held = this.deltas;
    this.deltas = new Map();
    for (const [itemId, { text, offset }] of held) if (this.window) this.window = withDelta(this.window, itemId, text, offset);
  }
}

function settle(main: Main, renderer: Renderer): void {
  while (main.requests.length) main.serve();
  for (const message of main.channel.splice(0)) renderer.receive(message);
  renderer.frame();
}

function expectSuffix(main: Main, window: TranscriptWindow | undefined): void {
  expect(window).toBeDefined();
  expect(window!.stale).toBeUndefined();
  expect(window!.olderItems + window!.items.length).toBe(main.items.length);
  expect(window!.items).toEqual(main.items.slice(window!.olderItems));
}

describe('the transcript window', () => {
  it('is always the end of main’s transcript, whatever the interleaving of events, snapshots and pages', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 5 }), fc.array(mainOp, { maxLength: 30 }), fc.array(step, { maxLength: 150 }), (pageSize, history, steps) => {
        const main = new Main(pageSize);
        const renderer = new Renderer();
        // A chat with some history; the renderer asks for it, and it is on its way while things happen.
        for (const change of history) main.apply(change);
        main.channel.length = 0;
        main.requests.push({ kind: 'open' });
        for (const s of steps) {
          if (s.step === 'main') main.apply(s.change);
          else if (s.step === 'open') main.requests.push({ kind: 'open' });
          else if (s.step === 'older') {
            const first = renderer.window?.items[0];
            if (first && renderer.window!.olderItems > 0) main.requests.push({ kind: 'older', beforeItemId: first.id, limit: s.limit });
          } else if (s.step === 'serve') main.serve();
          else if (s.step === 'deliver') {
            const message = main.channel.shift();
            if (message) renderer.receive(message);
          } else if (s.step === 'settle') settle(main, renderer);
          else renderer.frame();
          // Nothing goes wrong on the way: no event ever finds the window out of step with main…
          expect(renderer.window?.stale).toBeUndefined();
          // …and whenever everything sent has arrived, the window is the end of the chat.
          if (renderer.window && !main.channel.length && !main.requests.length) {
            renderer.frame();
            expectSuffix(main, renderer.window);
          }
        }
        settle(main, renderer);
        expectSuffix(main, renderer.window);
        // Paging back to the first item gives the whole chat.
        for (let pages = 0; renderer.window!.olderItems > 0; pages++) {
          expect(pages, 'pages to the first item').toBeLessThanOrEqual(main.items.length);
          const first = renderer.window!.items[0];
          // A cut above everything held leaves nothing to page back from: the chat is opened again.
          main.requests.push(first ? { kind: 'older', beforeItemId: first.id, limit: pageSize } : { kind: 'open' });
          main.serve();
          settle(main, renderer);
        }
        expect(renderer.window!.items).toEqual(main.items);
      }),
      { numRuns: 300 },
    );
  });
});
