import type { TranscriptItem } from '../../../shared/transcript';

/**
 * What the renderer holds of one chat's transcript (paged sessions, issue 15): the end of it —
 * the last page main sent when the chat opened, and the older pages loaded since, in order —
 * and how many items come before that. It is always a suffix of main's transcript: held items
 * are `main.slice(olderItems)`.
 *
 * Pure: each function returns the same window when nothing changed. Live events and pages may
 * arrive in any interleaving main's ordering allows (every response is preceded by the events it
 * already holds, docs/contract.md §1), and late (the renderer's batchers hold deltas and plan updates
 * for a frame); each function below is written so that applying an event the snapshot or page
 * already carries changes nothing.
 */
export interface TranscriptWindow {
  items: TranscriptItem[];
  /** How many items of the chat come before `items[0]` (0: the whole chat is held). */
  olderItems: number;
  /**
   * An event said this window disagrees with main (an item past a gap, a delta past the text held):
   * events were missed. The chat's snapshot is fetched again and replaces it.
   */
  stale?: true;
}

/** Searches from the end: live events are nearly always about the newest items. */
function localIndex(items: readonly TranscriptItem[], itemId: string): number {
  for (let i = items.length - 1; i >= 0; i--) if (items[i]!.id === itemId) return i;
  return -1;
}

function replaced(window: TranscriptWindow, at: number, item: TranscriptItem): TranscriptWindow {
  const items = window.items.slice();
  items[at] = item;
  return { ...window, items };
}

const stale = (window: TranscriptWindow): TranscriptWindow => (window.stale ? window : { ...window, stale: true });

/**
 * transcript_item: a held item is replaced where it is. Otherwise `index` (main's position of it)
 * says whether it is above what is held (a change to an older item: ignored, its page brings it
 * fresh) or new (appended). Without an index (a plan-change line derived here) it is new.
 */
export function withItem(window: TranscriptWindow, item: TranscriptItem, index?: number): TranscriptWindow {
  const at = localIndex(window.items, item.id);
  if (at >= 0) return window.items[at] === item ? window : replaced(window, at, item);
  if (index !== undefined && index < window.olderItems) return window;
  const appended = { ...window, items: [...window.items, item] };
  // Anywhere but right after the held end, items were missed on the way.
  return index === undefined || index === window.olderItems + window.items.length ? appended : stale(appended);
}

/**
 * message_delta: text for a held reply or thinking block, which starts at `offset` in its text.
 * Text the item already has (a snapshot carried it) is skipped; text past a gap marks the window stale.
 */
export function withDelta(window: TranscriptWindow, itemId: string, text: string, offset?: number): TranscriptWindow {
  const at = localIndex(window.items, itemId);
  const item = window.items[at];
  if (!item || (item.kind !== 'assistant' && item.kind !== 'thinking')) return window;
  const held = item.text.length;
  if (offset === undefined || offset === held) return replaced(window, at, { ...item, text: item.text + text });
  if (offset > held) return stale(window);
  const fresh = text.slice(held - offset);
  return fresh ? replaced(window, at, { ...item, text: item.text + fresh }) : window;
}

/** message_done: a held streaming reply is finished (main's own upsert may have done it already). */
export function withFinished(window: TranscriptWindow, itemId: string, stopReason: string | null): TranscriptWindow {
  const at = localIndex(window.items, itemId);
  const item = window.items[at];
  if (!item || item.kind !== 'assistant' || item.status !== 'streaming') return window;
  return replaced(window, at, { ...item, status: stopReason === 'stopped' ? 'stopped' : 'done' });
}

/**
 * chat_rewound: the item and everything after it are gone. Held, it is cut where it is; above
 * what is held (`index`, where main cut), everything held goes and the window ends there.
 */
export function withRewind(window: TranscriptWindow, fromItemId: string, index?: number): TranscriptWindow {
  const at = localIndex(window.items, fromItemId);
  if (at >= 0) return { ...window, items: window.items.slice(0, at) };
  if (index !== undefined && index < window.olderItems) return { items: [], olderItems: index };
  return window;
}

/**
 * The chat opened (getSession): the snapshot is the state of record. Older pages already held stay
 * in front of it when they line up with it exactly (same first item, at the same position), so
 * opening the chat that is on screen again does not drop what the user scrolled through.
 */
export function withSnapshot(held: TranscriptWindow | undefined, snapshot: { transcript: TranscriptItem[]; olderItems: number }): TranscriptWindow {
  const fresh: TranscriptWindow = { items: snapshot.transcript, olderItems: snapshot.olderItems };
  const first = fresh.items[0];
  if (!held || held.stale || !first || held.olderItems >= fresh.olderItems) return fresh;
  const at = localIndex(held.items, first.id);
  if (at <= 0 || held.olderItems + at !== fresh.olderItems) return fresh;
  return { items: [...held.items.slice(0, at), ...fresh.items], olderItems: held.olderItems };
}

/**
 * An older page (getTranscriptPage before `beforeItemId`) goes in front, when the window still
 * starts where it was asked from; otherwise the window moved on meanwhile (an edit cut it, the
 * chat was opened again) and the page is dropped — the transcript asks again if it still needs one.
 */
export function withOlderPage(window: TranscriptWindow, beforeItemId: string, page: { items: TranscriptItem[]; olderItems: number }): TranscriptWindow {
  if (window.items[0]?.id !== beforeItemId || page.olderItems >= window.olderItems) return window;
  return { ...window, items: [...page.items, ...window.items], olderItems: page.olderItems };
}

/** Whether the window holds the item (find in chat reveals it once it does). */
export function holds(window: TranscriptWindow | undefined, itemId: string): boolean {
  return !!window && localIndex(window.items, itemId) >= 0;
}
