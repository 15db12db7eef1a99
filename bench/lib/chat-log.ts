import { join } from 'node:path';
import type { LogEntry } from '../../src/main/store/log-records';
import { ChatLogWriter } from '../../src/main/store/log-writer';
import { SESSIONS_DIR } from '../../src/main/store/chat-logs';
import { chatTurn, type ChatTurnShape } from './chat-turns';

/**
 * Writes a chat straight into a data dir as the app's own log (sessions/<id>/events.jsonl, through
 * the app's ChatLogWriter), so a benchmark can open a chat of any size in seconds instead of
 * building it through hundreds of model requests. The records are the ones a live chat writes:
 * `created`, an `item` per transcript item, `history` appends that keep the API history in step
 * (so the chat can go on), `run` states.
 */
export interface ChatLogShape extends ChatTurnShape {
  id: string;
  /** User → reply exchanges. */
  turns: number;
  /** ISO time of the chat's last change (the app lists the newest first). */
  updatedAt: string;
}

const NOW = '2026-01-01T00:00:00.000Z';

/** Writes the chat; returns the number of transcript items and characters of text it holds. */
export function writeChatLog(dataDir: string, shape: ChatLogShape): { items: number; chars: number } {
  const writer = new ChatLogWriter(join(dataDir, SESSIONS_DIR, shape.id, 'events.jsonl'));
  const session = { id: shape.id, title: shape.title, createdAt: NOW, updatedAt: shape.updatedAt };
  const append = (entry: LogEntry) => writer.append(entry, { durable: false });
  append({ type: 'created', session: { ...session, updatedAt: NOW } });
  let history = 0;
  let items = 0;
  let chars = 0;
  const item = (entry: Extract<LogEntry, { type: 'item' }>['item']) => {
    items++;
    chars += 'text' in entry ? entry.text.length : 0;
    if (entry.kind === 'tool_call') chars += (entry.result ?? '').length + JSON.stringify(entry.input).length;
    append({ type: 'item', item: entry });
  };
  for (let n = 0; n < shape.turns; n++) {
    const { items: [user, ...reply], messages } = chatTurn(shape, n, shape.turns, history);
    item(user!);
    append({ type: 'run', state: { status: 'running', phase: 'requesting' } });
    reply.forEach(item);
    append({ type: 'history', from: history, messages });
    history += messages.length;
    append({ type: 'run', state: { status: 'idle' } });
  }
  append({ type: 'summary', session });
  writer.close();
  return { items, chars };
}
