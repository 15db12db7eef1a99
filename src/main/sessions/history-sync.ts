import type { MessageParam } from '@anthropic-ai/sdk/resources/messages';

/**
 * Tracks what of a chat's API history is already in its log. The loop only ever appends
 * messages or extends the last one (history.ts merges into a trailing message), so comparing
 * the last logged message and taking what follows is enough — never a full re-serialisation.
 */
export class HistorySync {
  private synced: number;
  private lastJson: string;

  constructor(history: readonly MessageParam[]) {
    this.synced = history.length;
    this.lastJson = history.length ? JSON.stringify(history[history.length - 1]) : '';
  }

  /** The change since the last call, as "replace from `from` with `messages`", or null. */
  diff(history: readonly MessageParam[]): { from: number; messages: MessageParam[] } | null {
    let from = Math.min(this.synced, history.length);
    if (from > 0 && from === this.synced && JSON.stringify(history[from - 1]) !== this.lastJson) from -= 1;
    if (from === history.length && history.length === this.synced) return null;
    const messages = history.slice(from);
    this.synced = history.length;
    this.lastJson = history.length ? JSON.stringify(history[history.length - 1]) : '';
    return { from, messages: structuredClone(messages) };
  }
}
