import type { MessageParam } from '@anthropic-ai/sdk/resources/messages';
import type { LineSpan } from './log-reader';
import { readSpans } from './log-spans';

/** A `history` record: the API history from index `from` on is replaced by `messages`. */
export interface HistoryChange {
  from: number;
  messages: readonly unknown[];
}

/** Folds one `history` record into a history, as replay does (the messages are copied). */
export function applyHistoryChange(history: MessageParam[], change: HistoryChange): void {
  history.splice(change.from, Infinity, ...(structuredClone(change.messages) as MessageParam[]));
}

/**
 * Reads a chat's API history back from its log: the `history` records at these spans (every one
 * replay folded, in order), folded again. A chat's history can then stay in its log until a run,
 * an edit or a compaction needs it (ChatSession.deferHistory). `fallback` gives it the slow way
 * when a line no longer reads as the record it was (the file was changed under the chat).
 */
export function historyReader(path: string, spans: readonly LineSpan[], fallback: () => MessageParam[]): () => MessageParam[] {
  return () => {
    try {
      const history: MessageParam[] = [];
      for (const line of readSpans(path, spans)) {
        const record = JSON.parse(line.toString('utf8')) as { type?: unknown; from?: unknown; messages?: unknown };
        if (record.type !== 'history' || typeof record.from !== 'number' || !Array.isArray(record.messages)) throw new Error('not a history record');
        // Freshly parsed: no copy needed.
        history.splice(record.from, Infinity, ...(record.messages as MessageParam[]));
      }
      return history;
    } catch {
      return fallback();
    }
  };
}
