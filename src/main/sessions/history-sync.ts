import type { MessageParam } from '@anthropic-ai/sdk/resources/messages';

/**
 * Tracks what of a chat's API history is already in its log. The loop appends messages or
 * extends the last one (api-history.ts merges into a trailing message), so comparing the last
 * logged message and taking what follows is enough — never a full re-serialisation. An edited
 * message cuts the history (rerun.ts): the messages from the cut on are other objects then, so
 * the first message that is not the one logged says where the log must start again.
 * Two steps, so nothing is marked saved before the writer has taken it: `changes` says what is
 * new, `markSaved` records it once it was appended.
 */
export class HistorySync {
  /** The messages as logged (the same objects the history holds). */
  private refs: MessageParam[];
  private lastJson: string;

  constructor(history: readonly MessageParam[]) {
    this.refs = [...history];
    this.lastJson = history.length ? JSON.stringify(history[history.length - 1]) : '';
  }

  /** The change since the last save, as "replace from `from` with `messages`", or null. Changes nothing. */
  changes(history: readonly MessageParam[]): { from: number; messages: MessageParam[] } | null {
    const synced = this.refs.length;
    let from = Math.min(synced, history.length);
    if (from > 0 && history[from - 1] !== this.refs[from - 1]) {
      while (from > 0 && history[from - 1] !== this.refs[from - 1]) from -= 1;
    } else if (from > 0 && from === synced && JSON.stringify(history[from - 1]) !== this.lastJson) {
      from -= 1;
    }
    if (from === history.length && history.length === synced) return null;
    return { from, messages: structuredClone(history.slice(from)) };
  }

  /** `history` as it is now has been handed to the log writer. */
  markSaved(history: readonly MessageParam[]): void {
    this.refs = [...history];
    this.lastJson = history.length ? JSON.stringify(history[history.length - 1]) : '';
  }
}
