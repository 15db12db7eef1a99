import type { ToolCallItem, TranscriptItem } from '../../../shared/transcript';
import type { LineSpan } from '../log-reader';
import type { LineWritten } from '../log-writer';
import { readSpans } from '../log-spans';
import { sidebarText } from '../search/sidebar-text';
import { TextBloom } from '../search/text-bloom';
import type { ChatItems } from '../../chats/chat-items';
import type { ChatSession } from '../../chats/chat-session';

type Kind = TranscriptItem['kind'];

/** How many of the newest items stay in memory: the page a chat opens on, and the one above it. */
export const KEEP_RECENT = 100;

/** Items a search reads from the log at first, and at most, at a time (a common word is found early). */
const FIRST_CHUNK = 16;
const LAST_CHUNK = 512;

/**
 * Small items never read back from the log: plan lines and completion cards (every plan change
 * looks through the cards, plan-cards.ts), and compactions (the chat holds the latest anyway).
 */
const ALWAYS_KEPT: ReadonlySet<Kind> = new Set<Kind>(['plan_change', 'plan_completion', 'compaction']);

interface Entry {
  readonly id: string;
  kind: Kind;
  /** The item, while it is held in memory. */
  value: TranscriptItem | undefined;
  /**
   * Where the log holds it: its last `item` record and the `text` records after it, as flat
   * [start, end, start, end…] byte offsets; null while the log cannot reproduce it that way.
   */
  spans: number[] | null;
  /** Bumped by every change in memory; `logged` is the version the spans reproduce. */
  version: number;
  logged: number;
  /** The version of the last whole replacement (an upsert), and of the last `item` record that landed. */
  replaced: number;
  itemLogged: number;
  /** Records announced to the log (`recording`), and the last of them that landed in the file. */
  issued: number;
  landed: number;
  toolUseId?: string;
}

/**
 * A chat's transcript in order, positions known (an upsert keeps an item in its place, a new item
 * goes to the end, a cut drops an item and everything after it), with old items' bodies left in
 * the chat's log: main holds an index of where each item's records lie and reads a page back
 * with one read (issue 15, paged sessions). What stays in memory: the newest KEEP_RECENT items,
 * every item of a run in progress, plan lines and completion cards, and anything the log does
 * not hold yet (a change not written, records waiting on a failed disk, lines derived from plan
 * records). An item leaves memory only once the lines that reproduce it are in the file.
 */
export class PagedItems implements ChatItems {
  private readonly entries: Entry[] = [];
  private readonly positions = new Map<string, number>();
  private readonly toolUses = new Map<string, string>();
  private readonly kinds = new Map<Kind, number>();
  private path: string | null = null;
  /** Items from this position on are kept: a run in progress updates them. */
  private pinnedFrom = Number.POSITIVE_INFINITY;
  private warned = false;
  /**
   * The sidebar text of every item that left memory, approximately: a search skips the log when
   * it cannot match. Filled as items leave memory, at load too (cheap: every fourth piece, no
   * copies; building it at the first search instead would parse every paged item).
   */
  private readonly released = new TextBloom();

  constructor(private keepRecent = KEEP_RECENT) {}

  /** The log file the spans point into; `keepRecent`: the window its owner keeps (KEEP_RECENT by default). */
  attach(path: string, keepRecent?: number): void {
    this.path = path;
    if (keepRecent === undefined || keepRecent === this.keepRecent) return;
    this.keepRecent = keepRecent;
    for (let i = 0; i < this.entries.length; i++) this.mayRelease(i);
  }

  get size(): number {
    return this.entries.length;
  }

  /** How many items are held in memory (the rest are in the log). */
  get resident(): number {
    return this.entries.reduce((n, entry) => n + (entry.value ? 1 : 0), 0);
  }

  /** Puts the item in its place (the end when it is new); returns that position. */
  set(item: TranscriptItem): number {
    const at = this.positions.get(item.id);
    if (at !== undefined) {
      const entry = this.entries[at]!;
      if (entry.kind !== item.kind) {
        this.count(entry.kind, -1);
        this.count(item.kind, 1);
        entry.kind = item.kind;
      }
      entry.value = item;
      entry.replaced = ++entry.version;
      this.noteToolUse(entry, item);
      return at;
    }
    const entry: Entry = { id: item.id, kind: item.kind, value: item, spans: null, version: 1, logged: 0, replaced: 1, itemLogged: 0, issued: 0, landed: 0 };
    this.noteToolUse(entry, item);
    this.positions.set(item.id, this.entries.length);
    this.entries.push(entry);
    this.count(item.kind, 1);
    // The item that just left the recent window may go.
    this.mayRelease(this.entries.length - 1 - this.keepRecent);
    return this.entries.length - 1;
  }

  /** Streamed text joins an assistant or thinking item; other kinds take none (as replay folds `text` records). */
  appendText(id: string, text: string): void {
    const at = this.positions.get(id);
    if (at === undefined) return;
    const entry = this.entries[at]!;
    if (entry.kind !== 'assistant' && entry.kind !== 'thinking') return;
    const item = this.read([at])[0]!;
    if (item.kind !== 'assistant' && item.kind !== 'thinking') return;
    entry.value = { ...item, text: item.text + text };
    entry.version++;
  }

  get(id: string): TranscriptItem | undefined {
    const at = this.positions.get(id);
    return at === undefined ? undefined : this.read([at])[0];
  }

  /** The item's position, or -1 when the transcript does not hold it. */
  indexOf(id: string): number {
    return this.positions.get(id) ?? -1;
  }

  /** Items [start, end) in transcript order (clamped to the transcript). */
  slice(start: number, end: number = this.entries.length): TranscriptItem[] {
    const from = Math.max(0, start);
    const to = Math.min(this.entries.length, Math.max(0, end));
    const indices: number[] = [];
    for (let i = from; i < to; i++) indices.push(i);
    return this.read(indices);
  }

  /** Every item in order (a copy: callers may keep it while the chat goes on). */
  values(): TranscriptItem[] {
    return this.slice(0);
  }

  /** Removes the item and every item after it; nothing when the transcript does not hold it. */
  cutFrom(id: string): void {
    const at = this.positions.get(id);
    if (at === undefined) return;
    for (const removed of this.entries.splice(at)) {
      this.positions.delete(removed.id);
      this.count(removed.kind, -1);
      if (removed.toolUseId !== undefined && this.toolUses.get(removed.toolUseId) === removed.id) this.toolUses.delete(removed.toolUseId);
    }
    // A run's items that were cut: what it adds next is still pinned.
    if (Number.isFinite(this.pinnedFrom)) this.pinnedFrom = Math.min(this.pinnedFrom, this.entries.length);
  }

  kindAt(index: number): Kind | undefined {
    return this.entries[index]?.kind;
  }

  idAt(index: number): string | undefined {
    return this.entries[index]?.id;
  }

  /** How many items of this kind the transcript holds (without reading any). */
  countOf(kind: Kind): number {
    return this.kinds.get(kind) ?? 0;
  }

  /** Every item of this kind, in order. */
  ofKind(kind: Kind): TranscriptItem[] {
    const indices: number[] = [];
    this.entries.forEach((entry, index) => {
      if (entry.kind === kind) indices.push(index);
    });
    return this.read(indices);
  }

  /** The tool call card of a tool_use id. */
  toolCall(toolUseId: string): ToolCallItem | undefined {
    const id = this.toolUses.get(toolUseId);
    const item = id === undefined ? undefined : this.get(id);
    return item?.kind === 'tool_call' && item.toolUseId === toolUseId ? item : undefined;
  }

  /** A run starts: the items from `from` on stay in memory until `unpin`. */
  pin(from: number): void {
    this.pinnedFrom = Math.min(this.pinnedFrom, from);
  }

  unpin(): void {
    const from = this.pinnedFrom;
    this.pinnedFrom = Number.POSITIVE_INFINITY;
    for (let i = from; i < this.entries.length - this.keepRecent; i++) this.mayRelease(i);
  }

  /**
   * A record of the item is about to go to the log (`record`: an `item` record, or `text`
   * appended to it): returns what the writer calls once the line is in the file, or undefined
   * when the record changes nothing of the item. Records must land in the order announced.
   */
  recording(id: string, record: 'item' | 'text'): LineWritten | undefined {
    const at = this.positions.get(id);
    if (at === undefined) return undefined;
    const entry = this.entries[at]!;
    // Replay applies text to these kinds only; to another item the record changes nothing.
    if (record === 'text' && entry.kind !== 'assistant' && entry.kind !== 'thinking') return undefined;
    const version = entry.version;
    const ticket = ++entry.issued;
    return (start, end) => {
      const now = this.positions.get(entry.id);
      if (now === undefined || this.entries[now] !== entry) return; // cut meanwhile
      if (record === 'item') {
        entry.spans = [start, end];
        entry.itemLogged = version;
      }
      // Text continues the records before it; after one that never landed the chain is broken.
      else if (entry.spans && entry.landed === ticket - 1) entry.spans.push(start, end);
      else entry.spans = null;
      entry.landed = ticket;
      // Text announced after an upsert (flushed just before the upsert's own record) does not make
      // the spans reproduce it: only the upsert's `item` record does.
      if (entry.spans && entry.version === version && entry.replaced <= entry.itemLogged) entry.logged = version;
      this.mayRelease(now);
    };
  }

  /** The record of the item at `span` is in the log already (read from it): as `recording`, landed at once. */
  logged(id: string, record: 'item' | 'text', span: LineSpan): void {
    this.recording(id, record)?.(span.start, span.end);
  }

  /**
   * The items that may contain a searched text, in order: those in memory, and those in the log
   * whose one line passes `mayMatch` (raw-match.ts; an item with text records after its line is
   * always read). The log is read a chunk at a time, so a consumer that stops early reads no
   * further; with `inLog` false it is not read at all.
   */
  *candidates(mayMatch: (line: Buffer) => boolean, inLog = true): Generator<TranscriptItem> {
    for (let from = 0, size = FIRST_CHUNK; from < this.entries.length; from += size, size = Math.min(size * 2, LAST_CHUNK)) {
      const chunk: number[] = [];
      for (let i = from; i < Math.min(from + size, this.entries.length); i++) chunk.push(i);
      const raw = inLog ? this.rawLines(chunk.filter((index) => !this.entries[index]!.value)) : new Map<number, Buffer[]>();
      const wanted = chunk.filter((index) => {
        if (this.entries[index]!.value) return true;
        if (!inLog) return false;
        const lines = raw.get(index);
        return !lines || lines.length > 1 || mayMatch(lines[0]!);
      });
      yield* this.read(wanted, raw);
    }
  }

  /** False when no item that left memory holds `needle` (lower-cased) in its sidebar text, lower-cased. */
  logMayHold(needle: string): boolean {
    return this.released.mayContain(needle);
  }

  /** The items at these positions, each from memory or from its lines in the log (one read). */
  private read(indices: readonly number[], prefetched?: Map<number, Buffer[]>): TranscriptItem[] {
    const missing = indices.filter((index) => !this.entries[index]!.value && !prefetched?.has(index));
    const raw = this.rawLines(missing);
    return indices.map((index) => {
      const entry = this.entries[index]!;
      if (entry.value) return entry.value;
      const lines = prefetched?.get(index) ?? raw.get(index);
      const item = lines && this.fold(entry, lines);
      if (!item) return this.unreadable(entry);
      // Back in the window (after a cut) or pinned: kept again.
      if (this.kept(index, entry)) entry.value = item;
      return item;
    });
  }

  /** The lines of the entries at these positions, by position; an unreadable log gives none. */
  private rawLines(indices: readonly number[]): Map<number, Buffer[]> {
    const byIndex = new Map<number, Buffer[]>();
    if (!indices.length || !this.path) return byIndex;
    const spans: LineSpan[] = [];
    for (const index of indices) {
      const flat = this.entries[index]!.spans!;
      for (let i = 0; i < flat.length; i += 2) spans.push({ start: flat[i]!, end: flat[i + 1]! });
    }
    let buffers: Buffer[];
    try {
      buffers = readSpans(this.path, spans);
    } catch (error) {
      this.warn(`could not read ${this.path}: ${(error as Error).message}`);
      return byIndex;
    }
    let next = 0;
    for (const index of indices) {
      const count = this.entries[index]!.spans!.length / 2;
      byIndex.set(index, buffers.slice(next, next + count));
      next += count;
    }
    return byIndex;
  }

  /** The item as replay folds its lines: the `item` record, then the text appended to it. */
  private fold(entry: Entry, lines: readonly Buffer[]): TranscriptItem | undefined {
    try {
      let item: TranscriptItem | undefined;
      for (const line of lines) {
        const record = JSON.parse(line.toString('utf8')) as { type?: string; item?: TranscriptItem; itemId?: string; text?: string };
        if (!item) {
          if (record.type !== 'item' || record.item?.id !== entry.id) return undefined;
          item = record.item;
        } else {
          if (record.type !== 'text' || record.itemId !== entry.id || typeof record.text !== 'string') return undefined;
          if (item.kind === 'assistant' || item.kind === 'thinking') item = { ...item, text: item.text + record.text };
        }
      }
      return item;
    } catch {
      return undefined;
    }
  }

  /** An item its log no longer gives back (the file was changed or removed under the chat). */
  private unreadable(entry: Entry): TranscriptItem {
    this.warn(`item ${entry.id} could not be read back from ${this.path ?? 'its log'}`);
    return { id: entry.id, createdAt: '', kind: 'notice', level: 'error', code: 'unreadable', text: "This part of the chat could not be read from its log: the file was changed or removed outside Waypoint." };
  }

  private warn(message: string): void {
    if (this.warned) return;
    this.warned = true;
    console.warn(`[waypoint] ${message}`);
  }

  private kept(index: number, entry: Entry): boolean {
    return index >= this.entries.length - this.keepRecent || index >= this.pinnedFrom || ALWAYS_KEPT.has(entry.kind);
  }

  /** Lets the item's body go when the log reproduces it and nothing keeps it; the sidebar search remembers its words. */
  private mayRelease(index: number): void {
    const entry = this.entries[index];
    if (!entry?.value || !this.path || !entry.spans || entry.logged !== entry.version || this.kept(index, entry)) return;
    this.released.add(sidebarText(entry.value));
    entry.value = undefined;
  }

  private noteToolUse(entry: Entry, item: TranscriptItem): void {
    const toolUseId = item.kind === 'tool_call' ? item.toolUseId : undefined;
    if (entry.toolUseId === toolUseId) return;
    if (entry.toolUseId !== undefined && this.toolUses.get(entry.toolUseId) === entry.id) this.toolUses.delete(entry.toolUseId);
    entry.toolUseId = toolUseId;
    if (toolUseId !== undefined) this.toolUses.set(toolUseId, entry.id);
  }

  private count(kind: Kind, delta: number): void {
    this.kinds.set(kind, (this.kinds.get(kind) ?? 0) + delta);
  }
}

/**
 * The store's own items of a chat, to reach their log side (attach, recording, spans, search of
 * the log); undefined for a chat whose items are kept elsewhere.
 */
export function pagedItemsOf(session: ChatSession | undefined): PagedItems | undefined {
  return session?.items instanceof PagedItems ? session.items : undefined;
}
