import type { MessageParam } from '@anthropic-ai/sdk/resources/messages';

/**
 * One change to a chat's API history, as the chat announces it and the log keeps it (a `history`
 * record, store/log-records.ts): the API history from index `from` on is replaced by `messages`; with
 * `keep`, the first of them continues the message at `from` after its first `keep` blocks.
 */
export interface HistoryChange {
  from: number;
  keep?: number;
  messages: readonly unknown[];
}

/**
 * Why a `history` record cannot apply to this history (it was not written after it: the log was
 * changed by hand, or a line is missing), or null when it fits.
 */
export function historyChangeProblem(history: readonly MessageParam[], change: HistoryChange): string | null {
  if (change.from > history.length) return `it replaces the history from message ${change.from}, but there are only ${history.length}`;
  if (change.keep === undefined) return null;
  const target = history[change.from];
  const first = change.messages[0] as MessageParam | undefined;
  if (!target || !first) return `it continues message ${change.from}, which is not there`;
  if (target.role !== first.role) return `it continues ${target.role} message ${change.from} with ${first.role} content`;
  const blocks = typeof target.content === 'string' ? 1 : target.content.length;
  if (change.keep > blocks || !Array.isArray(first.content)) return `it keeps ${change.keep} blocks of message ${change.from}, which has ${blocks}`;
  return null;
}

/** Folds one `history` record into a history, as replay does (the messages are copied); false (nothing changed) when it does not fit. */
export function applyHistoryChange(history: MessageParam[], change: HistoryChange, copy = true): boolean {
  if (historyChangeProblem(history, change) !== null) return false;
  const messages = (copy ? structuredClone(change.messages) : change.messages) as MessageParam[];
  if (change.keep === undefined) {
    history.splice(change.from, Infinity, ...messages);
    return true;
  }
  const target = history[change.from]!;
  const kept = typeof target.content === 'string' ? [{ type: 'text' as const, text: target.content }] : target.content.slice(0, change.keep);
  const [first, ...rest] = messages;
  history.splice(change.from, Infinity, { role: target.role, content: [...kept, ...(first!.content as typeof kept)] } as MessageParam, ...rest);
  return true;
}
