import type { TranscriptRow } from './transcript-rows';

/** The key a row is rendered with (data-row-key): its item's id, or a group's first change. */
export function rowKey(row: TranscriptRow): string {
  return row.kind === 'item' ? row.item.id : row.id;
}

/** Which row shows each item: an item's own, or the group of plan changes it is in. */
export function rowKeysByItem(rows: readonly TranscriptRow[]): Map<string, string> {
  const keys = new Map<string, string>();
  for (const row of rows) {
    if (row.kind === 'item') keys.set(row.item.id, row.item.id);
    else for (const item of row.items) keys.set(item.id, row.id);
  }
  return keys;
}

/** The rendered row element with this key, among the transcript's rows. */
export function rowElement(container: HTMLElement | null, key: string | undefined): HTMLElement | null {
  if (!container || key === undefined) return null;
  for (const el of container.querySelectorAll<HTMLElement>('[data-row-key]')) if (el.dataset.rowKey === key) return el;
  return null;
}
