import type { MessageParam } from '@anthropic-ai/sdk/resources/messages';
import { UserFacingError } from '../common/errors';
import { apiHistoryProblem } from '../chats/api-history';
import type { LineSpan } from './log-reader';
import { readSpans } from './log-spans';
import { applyHistoryChange, type HistoryChange } from '../chats/history-change';

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
