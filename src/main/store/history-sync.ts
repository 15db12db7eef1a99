import type { MessageParam } from '@anthropic-ai/sdk/resources/messages';
import type { HistoryChange } from './logged-history';

/**
 * Tracks what of a chat's API history is already in its log. The loop appends messages or
 * extends the last one (api-history.ts merges into a trailing message by giving it a new content
 * array that starts with the same block objects), so comparing the last logged message and taking
 * what follows is enough — never a full re-serialisation. A last message extended that way is
 * logged as its new blocks only (`keep`): messages the API never answers pile up in one user
 * message, and logging it whole each time made the log grow with the square of what was typed.
 * An edited message cuts the history (rerun.ts): the messages from the cut on are other objects
 * then, so the first message that is not the one logged says where the log must start again.
 * Blocks are never changed in place (api-history.ts), so identity says what changed.
 * Two steps, so nothing is marked saved before the writer has taken it: `changes` says what is
 * new, `markSaved` records it once it was appended.
 */
export class HistorySync {
  /** The messages as logged (the same objects the history holds). */
  private refs: MessageParam[];
  /** The last logged message's content as it was logged (its array, or its text). */
  private lastContent: MessageParam['content'] | undefined;
  private lastBlockCount = 0;

  constructor(history: readonly MessageParam[]) {
    this.refs = [];
    this.markSaved(history);
  }

  /** The change since the last save, or null. Changes nothing. */
  changes(history: readonly MessageParam[]): (HistoryChange & { messages: MessageParam[] }) | null {
    const synced = this.refs.length;
    let from = Math.min(synced, history.length);
    if (from > 0 && history[from - 1] !== this.refs[from - 1]) {
      while (from > 0 && history[from - 1] !== this.refs[from - 1]) from -= 1;
    } else if (from > 0 && from === synced && this.lastChanged(history[from - 1]!)) {
      const last = history[from - 1]!;
      if (this.extends(last)) {
        const added = (last.content as unknown[]).slice(this.lastBlockCount);
        return { from: from - 1, keep: this.lastBlockCount, messages: structuredClone([{ role: last.role, content: added } as MessageParam, ...history.slice(from)]) };
      }
      from -= 1;
    }
    if (from === history.length && history.length === synced) return null;
    return { from, messages: structuredClone(history.slice(from)) };
  }

  /** `history` as it is now has been handed to the log writer. */
  markSaved(history: readonly MessageParam[]): void {
    this.refs = [...history];
    const last = history[history.length - 1];
    this.lastContent = last?.content;
    this.lastBlockCount = Array.isArray(last?.content) ? last.content.length : 0;
  }

  private lastChanged(last: MessageParam): boolean {
    if (last.content !== this.lastContent) return true;
    // The same array grown in place (nothing does that today; cheap to notice).
    return Array.isArray(last.content) && last.content.length !== this.lastBlockCount;
  }

  /** The last message kept every block logged, in order, and only added blocks after them. */
  private extends(last: MessageParam): boolean {
    const before = this.lastContent;
    if (!Array.isArray(before) || !Array.isArray(last.content) || before === last.content) return false;
    if (last.content.length <= this.lastBlockCount || this.lastBlockCount === 0) return false;
    for (let i = 0; i < this.lastBlockCount; i++) if (last.content[i] !== before[i]) return false;
    return true;
  }
}
