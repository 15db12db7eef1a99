import type { MessageParam } from '@anthropic-ai/sdk/resources/messages';
import { UserFacingError } from '../common/errors';
import { apiHistoryProblem } from '../chats/api-history';
import type { LineSpan } from './log-reader';
import { readSpans } from './log-spans';

/**
 * A `history` record: the API history from index `from` on is replaced by `messages`; with
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

/**
 * Reads a chat's API history back from its log: the `history` records at these spans (every one
 * replay folded, in order), folded again. A chat's history can then stay in its log until a run,
 * an edit or a compaction needs it (ChatSession.deferHistory). `fallback` gives it the slow way
 * when a line no longer reads as the record it was (the file was changed under the chat).
 */
export function historyReader(path: string, spans: readonly LineSpan[], fallback: () => MessageParam[], expectedLength?: number): () => MessageParam[] {
  return () => {
    const history = readBack(path, spans, fallback, expectedLength);
    // The file may have been changed since it was loaded: what it says now goes to the API only if the API would take it.
    const problem = apiHistoryProblem(history);
    if (problem) {
      throw new UserFacingError(
        'invalid_input',
        `This chat's log was changed outside Waypoint, and the history read back from it is not one Claude accepts (${problem}). Nothing was sent. Export the chat to keep it, or start a new one.`,
      );
    }
    return history;
  };
}

function readBack(path: string, spans: readonly LineSpan[], fallback: () => MessageParam[], expectedLength?: number): MessageParam[] {
  try {
    const history: MessageParam[] = [];
    for (const line of readSpans(path, spans)) {
      const record = JSON.parse(line.toString('utf8')) as { type?: unknown; from?: unknown; keep?: unknown; messages?: unknown };
      if (record.type !== 'history' || typeof record.from !== 'number' || !Array.isArray(record.messages)) throw new Error('not a history record');
      if (record.keep !== undefined && typeof record.keep !== 'number') throw new Error('not a history record');
      // Freshly parsed: no copy needed.
      if (!applyHistoryChange(history, record as HistoryChange, false)) throw new Error('a history record that does not fit');
    }
    // Lines that still read as history records, but not as the ones loaded: the file changed.
    if (expectedLength !== undefined && history.length !== expectedLength) throw new Error('not the history loaded');
    return history;
  } catch {
    return fallback();
  }
}
