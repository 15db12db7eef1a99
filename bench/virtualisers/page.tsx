import { createRoot } from 'react-dom/client';
import type { TranscriptItem } from '../../src/shared/transcript';
import { Transcript } from '../../src/renderer/src/components/transcript/Transcript';
import { chatTurn, richReply } from '../lib/chat-turns';
import { PlanChangeGroup } from '../../src/renderer/src/components/transcript/PlanChangeGroup';
import { rowKey } from '../../src/renderer/src/components/transcript/row-key';
import { TranscriptEntry } from '../../src/renderer/src/components/transcript/TranscriptEntry';
import { transcriptRows } from '../../src/renderer/src/components/transcript/transcript-rows';
import { TanstackTranscript } from './tanstack-transcript';
import { SizedVirtuaTranscript } from './virtua-sized';
import '../../src/renderer/src/styles/base.css';
import '../../src/renderer/src/styles/layout.css';
import '../../src/renderer/src/styles/chat.css';
import '../../src/renderer/src/styles/highlight.css';

/**
 * The page bench/virtualisers.ts drives: the same long working chat (bench/lib/chat-turns.ts, the
 * content of the working-chat benchmark) in the app's own Transcript (virtua) or in the same
 * transcript on @tanstack/react-virtual, in a column like the app's. Each function measures in the
 * page, per animation frame, what a person would see.
 */
/** virtua-sized: the wheel-scroll measures only (virtua-sized.tsx). */
export type Lib = 'virtua' | 'tanstack' | 'virtua-sized';

/** Every row in the DOM, no virtualiser: the chat's true height, which the virtualisers estimate until they measured a row. */
function StaticTranscript({ items }: { items: TranscriptItem[] }) {
  return (
    <div className="transcript" role="log" aria-label="Conversation">
      <div className="transcript-inner">
        {transcriptRows(items).map((row, index) => (
          <div key={rowKey(row)} className={index === 0 ? 'transcript-row transcript-row--first' : 'transcript-row'} data-row-key={rowKey(row)}>
            {row.kind === 'item' ? <TranscriptEntry item={row.item} /> : <PlanChangeGroup items={row.items} />}
          </div>
        ))}
      </div>
    </div>
  );
}

const TURNS = 300;
const END_MARKER = 'The last reply of the chat ends here.';
const SHAPE = { title: 'A long working session', rich: true, endMarker: END_MARKER };
const turns = Array.from({ length: TURNS }, (_, n) => chatTurn(SHAPE, n, TURNS, 0).items);

const root = createRoot(document.getElementById('root')!);
let lib: Lib | 'static' = 'virtua';
let firstTurn = 0;
let extra: TranscriptItem[] = [];

function render(): void {
  const items = [...turns.slice(firstTurn).flat(), ...extra];
  const view = lib === 'virtua' ? <Transcript items={items} announcement="" /> : lib === 'tanstack' ? <TanstackTranscript items={items} /> : lib === 'virtua-sized' ? <SizedVirtuaTranscript items={items} /> : <StaticTranscript items={items} />;
  root.render(<div className="chat" style={{ height: '100vh' }}>{view}</div>);
}

const log = () => document.querySelector<HTMLElement>('[role="log"][aria-label="Conversation"]')!;
const frame = () => new Promise<number>((resolve) => requestAnimationFrame(resolve));
const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** How far the view is from the end of the log, in px (0: at the end). */
const behindEnd = (el: HTMLElement) => Math.max(0, el.scrollHeight - el.clientHeight - el.scrollTop);

/** The last reply's end is on screen in the log. */
function lastReplyShown(): boolean {
  const el = document.querySelector('[role="log"][aria-label="Conversation"]');
  const replies = el?.querySelectorAll('article[aria-label="Claude"]');
  const last = replies?.[replies.length - 1];
  if (!el || !last || !(last.textContent ?? '').includes(END_MARKER)) return false;
  const a = last.getBoundingClientRect();
  const b = el.getBoundingClientRect();
  return a.bottom <= b.bottom + 1 && a.bottom > b.top;
}

/**
 * Mounts the chat from turn `from` on and waits for the first frame that shows the end of its
 * last reply; the time is taken after that frame (its paint), from just before React was asked
 * to render. Then lets it settle for `settleMs` and reports where it came to rest.
 */
async function open(which: Lib, from: number, settleMs: number) {
  lib = which;
  firstTurn = from;
  extra = [];
  const started = performance.now();
  render();
  let shownAt = Number.NaN;
  while (performance.now() - started < 15_000) {
    await frame();
    if (lastReplyShown()) {
      await wait(0);
      shownAt = performance.now() - started;
      break;
    }
  }
  await wait(settleMs);
  return { started, shownAtMs: shownAt, pxShort: behindEnd(log()), lastReplyShown: lastReplyShown(), domElements: document.getElementsByTagName('*').length };
}

/**
 * The chat's true layout, every row in the DOM (takes seconds): its height and where each row
 * starts (px from the top of the content), to tell where a virtualised view really is.
 */
async function trueLayout(): Promise<{ height: number; tops: Record<string, number> }> {
  lib = 'static';
  firstTurn = 0;
  extra = [];
  render();
  await frame();
  await frame();
  const el = log();
  const origin = el.getBoundingClientRect().top - el.scrollTop;
  const tops = Object.fromEntries([...el.querySelectorAll<HTMLElement>('[data-row-key]')].map((row) => [row.dataset.rowKey!, row.getBoundingClientRect().top - origin]));
  return { height: el.scrollHeight, tops };
}

/** The row at the top of the log's view and how far its top is above or below the view's (px). */
function topRow(el: HTMLElement): { key: string; y: number } | null {
  const top = el.getBoundingClientRect().top;
  const row = [...el.querySelectorAll<HTMLElement>('[data-row-key]')].find((r) => r.getBoundingClientRect().bottom > top);
  return row ? { key: row.dataset.rowKey!, y: row.getBoundingClientRect().top - top } : null;
}

interface WheelTrace {
  wheeled: number;
  /** Wheel movement (px) up to the first frame at the top; null: not reached. */
  toTop: number | null;
  /** The top row of every frame, until the top. */
  frames: { key: string; y: number }[];
}

/** From now on, per frame until the top is reached: the wheel's movement over the log and the row at the top of the view. */
function watchWheel(): void {
  const el = log();
  const trace: WheelTrace = { wheeled: 0, toTop: null, frames: [] };
  (window as unknown as { __wheel: WheelTrace }).__wheel = trace;
  el.addEventListener('wheel', (event) => (trace.wheeled += Math.abs(event.deltaY)), { passive: true });
  const check = () => {
    const row = topRow(el);
    if (row) trace.frames.push(row);
    if (atTop()) trace.toTop = trace.wheeled;
    else requestAnimationFrame(check);
  };
  requestAnimationFrame(check);
}
const wheelTrace = () => (window as unknown as { __wheel: WheelTrace }).__wheel;

/** The first message of the chat is on screen and the log is scrolled to its top. */
function atTop(): boolean {
  const el = log();
  const first = el.querySelector(`[data-row-key="u${firstTurn}"]`);
  return el.scrollTop === 0 && !!first && first.getBoundingClientRect().top >= el.getBoundingClientRect().top - 1;
}

/**
 * The user sends a message and a long reply streams in (`chars` characters every `everyMs`, like
 * the event pump's 33 ms batches), then finishes. Per frame: how far the view is behind the end.
 */
async function stream(chars: number, everyMs: number) {
  const text = [richReply(1000), richReply(1001), richReply(1002)].join('\n\n');
  const createdAt = new Date(0).toISOString();
  const user: TranscriptItem = { id: 'u-new', createdAt, kind: 'user', text: 'One more thing: do the same for the three modules after it.', historyAt: { message: 0, block: 0 } };
  const reply = (length: number, done: boolean): TranscriptItem => ({ id: 'a-new', createdAt, kind: 'assistant', text: text.slice(0, length), status: done ? 'done' : 'streaming' });
  let behind: number[] = [];
  let watching = true;
  const watch = () => {
    behind.push(behindEnd(log()));
    if (watching) requestAnimationFrame(watch);
  };
  requestAnimationFrame(watch);
  extra = [user, reply(0, false)];
  render();
  for (let length = chars; length < text.length + chars; length += chars) {
    await wait(everyMs);
    extra = [user, reply(Math.min(length, text.length), length >= text.length)];
    render();
  }
  const during = behind;
  behind = [];
  await wait(1000);
  watching = false;
  await frame();
  const userMessage = log().querySelector('[data-row-key="u-new"]');
  return { frames: during.length, maxBehindPx: Math.max(0, ...during), framesBehind: during.filter((b) => b > 2).length, behindAfterPx: behindEnd(log()), userMessageInDom: !!userMessage, replyChars: text.length };
}

/**
 * Older turns load above the first one while the user is at the top (paging in, issue 15 item 2).
 * The row at the top of the view should stay where it is: per frame for `watchMs`, how far it
 * moved (Infinity: it left the DOM, the view jumped elsewhere).
 */
async function prepend(count: number, watchMs: number) {
  const el = log();
  const { key, y: before } = topRow(el)!;
  firstTurn = Math.max(0, firstTurn - count);
  render();
  const moved: number[] = [];
  const started = performance.now();
  while (performance.now() - started < watchMs) {
    await frame();
    const now = el.querySelector(`[data-row-key="${key}"]`);
    moved.push(now ? Math.abs(now.getBoundingClientRect().top - el.getBoundingClientRect().top - before) : Number.POSITIVE_INFINITY);
  }
  return { anchor: key, frames: moved.length, maxMovedPx: Math.max(0, ...moved), movedAfterPx: moved.at(-1) ?? Number.NaN, framesMoved: moved.filter((m) => m > 2).length };
}

const api = { open, atTop, trueLayout, watchWheel, wheelTrace, stream, prepend, scrollTop: (px: number) => (log().scrollTop = px), itemCount: () => turns.slice(firstTurn).flat().length + extra.length };
export type VirtualiserPage = typeof api;
(window as unknown as { bench: VirtualiserPage }).bench = api;
