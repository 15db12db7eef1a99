import type { TranscriptItem } from '../../../shared/transcript';

/** Pure helpers over one chat's transcript; they return the same array when nothing changed. */

export function upsertById(items: readonly TranscriptItem[], item: TranscriptItem): TranscriptItem[] {
  const index = items.findIndex((existing) => existing.id === item.id);
  if (index === -1) return [...items, item];
  const next = items.slice();
  next[index] = item;
  return next;
}

export function appendText(items: TranscriptItem[], itemId: string, text: string): TranscriptItem[] {
  // Deltas belong to the newest assistant message, so search from the end.
  for (let i = items.length - 1; i >= 0; i--) {
    const item = items[i];
    if (item?.id !== itemId) continue;
    if (item.kind !== 'assistant' && item.kind !== 'thinking') return items;
    const next = items.slice();
    next[i] = { ...item, text: item.text + text };
    return next;
  }
  return items;
}

export function markFinished(items: TranscriptItem[], itemId: string, stopReason: string | null): TranscriptItem[] {
  const index = items.findIndex((item) => item.id === itemId);
  const item = items[index];
  if (!item || item.kind !== 'assistant' || item.status !== 'streaming') return items;
  const next = items.slice();
  next[index] = { ...item, status: stopReason === 'stopped' ? 'stopped' : 'done' };
  return next;
}

/**
 * A snapshot is the state of record, but events that arrived while it was being fetched may
 * be newer: keep held items the snapshot doesn't know about, after it — only those at least as
 * new as its newest item: an older one was cut from the chat (an edited message replaced it)
 * while this window was away.
 */
export function mergeSnapshot(held: readonly TranscriptItem[] | undefined, snapshot: TranscriptItem[]): TranscriptItem[] {
  if (!held?.length) return snapshot;
  const known = new Set(snapshot.map((item) => item.id));
  const newest = snapshot.reduce((latest, item) => (item.createdAt > latest ? item.createdAt : latest), '');
  const extra = held.filter((item) => !known.has(item.id) && item.createdAt >= newest);
  return extra.length ? [...snapshot, ...extra] : snapshot;
}
