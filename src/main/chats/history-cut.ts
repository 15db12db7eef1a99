import type { ContentBlockParam, MessageParam } from '@anthropic-ai/sdk/resources/messages';
import type { HistoryMark, UserItem } from '../../shared/transcript';

/**
 * Where a user's message sits in the API history, and cutting the history there (Edit message,
 * Retry reply). A message's blocks start at its mark: a new user message (block 0), or the end of
 * a user message it was merged into (after tool_results the run left there, or after an earlier
 * message whose request failed). Cutting keeps what came before the mark — tool_results that
 * answer the previous assistant turn — so the history stays valid: roles alternate and every
 * tool_use keeps its one tool_result.
 */

const blocksOf = (message: MessageParam): ContentBlockParam[] =>
  typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : message.content;

/** Where the next user content appendUser adds will start. */
export function nextUserMark(history: readonly MessageParam[]): HistoryMark {
  const last = history.at(-1);
  return last?.role === 'user' ? { message: history.length - 1, block: blocksOf(last).length } : { message: history.length, block: 0 };
}

/**
 * The mark of each user message, in order. Messages logged before marks existed are found by
 * their text: the next user text block with exactly that text, after the previous message.
 */
export function locateUserMessages(history: readonly MessageParam[], users: readonly UserItem[]): Map<string, HistoryMark> {
  const found = new Map<string, HistoryMark>();
  let after: HistoryMark = { message: 0, block: 0 };
  for (const user of users) {
    const mark = user.historyAt && isWithin(history, user.historyAt) ? user.historyAt : findText(history, user.text, after);
    if (!mark) continue;
    found.set(user.id, mark);
    after = { message: mark.message, block: mark.block + 1 };
  }
  return found;
}

/** The blocks of the user message at `mark` (up to `next`, the following user message's mark, or the end of its API message). */
export function userBlocksAt(history: readonly MessageParam[], mark: HistoryMark, next?: HistoryMark): ContentBlockParam[] {
  const message = history[mark.message];
  if (!message || message.role !== 'user') return [];
  const end = next && next.message === mark.message ? next.block : undefined;
  return blocksOf(message)
    .slice(mark.block, end)
    .filter((b) => b.type !== 'tool_result');
}

/**
 * Drops the history from `mark` on: the blocks of that message from the mark, and every later
 * message. ChatSession.cutHistory announces it as a change from the mark's message on.
 */
export function cutHistory(history: MessageParam[], mark: HistoryMark): void {
  const message = history[mark.message];
  if (!message) return;
  const kept = blocksOf(message).slice(0, mark.block);
  history.splice(mark.message, Infinity);
  // A mark is always in a user message (the tool_results before it stay).
  if (kept.length) history.push({ role: 'user', content: kept });
}

function isWithin(history: readonly MessageParam[], mark: HistoryMark): boolean {
  const message = history[mark.message];
  return !!message && message.role === 'user' && mark.block < blocksOf(message).length;
}

function findText(history: readonly MessageParam[], text: string, after: HistoryMark): HistoryMark | null {
  for (let m = after.message; m < history.length; m++) {
    const message = history[m]!;
    if (message.role !== 'user') continue;
    const blocks = blocksOf(message);
    for (let b = m === after.message ? after.block : 0; b < blocks.length; b++) {
      const block = blocks[b]!;
      if (block.type === 'text' && block.text === text) return { message: m, block: b };
    }
  }
  return null;
}
