import type { ToolCallItem, TranscriptItem } from '../../shared/transcript';

/**
 * The port a chat keeps its transcript behind. The chat of record knows the items in order and
 * nothing of where they live; the store implements it (store/paging/paged-items.ts), letting older
 * items leave memory and reading them back from the chat's log when asked for.
 */
export interface ChatItems {
  /** How many items the transcript holds. */
  readonly size: number;
  /** Items held in memory now (the rest are read back when asked for). */
  readonly resident: number;
  /** Puts an item in (replacing one with its id) and gives its position. */
  set(item: TranscriptItem): number;
  /** Streamed text joins the item's text. */
  appendText(id: string, text: string): void;
  get(id: string): TranscriptItem | undefined;
  /** The item's position, or -1. */
  indexOf(id: string): number;
  /** Items [start, end), in order. */
  slice(start: number, end?: number): TranscriptItem[];
  /** The whole transcript, in order (a copy). */
  values(): TranscriptItem[];
  /** Drops the item with this id and every one after it. */
  cutFrom(id: string): void;
  kindAt(index: number): TranscriptItem['kind'] | undefined;
  idAt(index: number): string | undefined;
  countOf(kind: TranscriptItem['kind']): number;
  ofKind(kind: TranscriptItem['kind']): TranscriptItem[];
  toolCall(toolUseId: string): ToolCallItem | undefined;
  /** Items from this position on stay in memory (a run is updating them) until `unpin`. */
  pin(from: number): void;
  unpin(): void;
}
