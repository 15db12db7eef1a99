import type { TranscriptItem } from '../../../../shared/transcript';
import type { TranscriptRow } from './transcript-rows';

function rowHolds(row: TranscriptRow, itemId: string): boolean {
  return row.kind === 'item' ? row.item.id === itemId : row.items.some((item) => item.id === itemId);
}

function firstItemId(row: TranscriptRow): string {
  return row.kind === 'item' ? row.item.id : row.items[0]!.id;
}

/**
 * The index of the row that shows `itemId`: its own row, or the plan-change group that holds it.
 * An item the transcript does not draw (a tool-only reply, a discarded thinking block) is shown by
 * the next row drawn after it, or the last row when none follows. -1 when the chat has no such item.
 */
export function rowIndexOf(rows: readonly TranscriptRow[], items: readonly TranscriptItem[], itemId: string): number {
  const own = rows.findIndex((row) => rowHolds(row, itemId));
  if (own >= 0) return own;
  const position = new Map(items.map((item, i) => [item.id, i]));
  const at = position.get(itemId);
  if (at === undefined) return -1;
  const next = rows.findIndex((row) => (position.get(firstItemId(row)) ?? -1) > at);
  return next >= 0 ? next : rows.length - 1;
}
