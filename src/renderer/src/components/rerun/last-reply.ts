import type { TranscriptItem } from '../../../../shared/transcript';

/** The reply "Retry reply" is on: the last reply with text after the last user message, or null. */
export function lastReplyId(items: readonly TranscriptItem[]): string | null {
  for (let i = items.length - 1; i >= 0; i--) {
    const item = items[i]!;
    if (item.kind === 'user') return null;
    if (item.kind === 'assistant' && item.status !== 'streaming' && item.text.trim()) return item.id;
  }
  return null;
}
