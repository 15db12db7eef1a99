import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeChatLog } from './chat-log';

/**
 * A data folder of `count` chats of `turns` rich turns each, written once and cached in the temp
 * folder between runs (1,000 × 300 turns is ≈ 4 GB: writing it through the app's writer for each
 * run would take longer than the benchmark). One chat is written as the app's own log
 * (chat-log.ts); every other chat is that log with its id, title and time put in, so each is a
 * log the app reads exactly as its own. The index the app keeps (sessions/index.json) is left to
 * the caller: `resetIndex` removes it for a cold start.
 */
export interface ManyChats {
  dataDir: string;
  /** Bytes of logs. */
  bytes: number;
  /** The title of chat `n` (titles are "Chat n"). */
  title(n: number): string;
}

const TEMPLATE_ID = 'bench-template-chat-0000';
const TEMPLATE_TIME = '2099-12-31T23:59:59.999Z';
/** Bump when the content changes: the cached folders are named after it. */
const VERSION = 1;

export function manyChats(count: number, turns: number): ManyChats {
  const dataDir = join(tmpdir(), 'waypoint-bench-many-chats', `v${VERSION}-${count}x${turns}`);
  const sessions = join(dataDir, 'sessions');
  const done = join(dataDir, 'generated');
  const title = (n: number) => `Chat ${n}`;
  if (!existsSync(done)) {
    rmSync(dataDir, { recursive: true, force: true });
    const scratch = join(dataDir, 'template');
    writeChatLog(scratch, { id: TEMPLATE_ID, title: 'Chat TEMPLATE', turns, rich: true, updatedAt: TEMPLATE_TIME });
    const template = readFileSync(join(scratch, 'sessions', TEMPLATE_ID, 'events.jsonl'), 'utf8');
    rmSync(scratch, { recursive: true, force: true });
    for (let n = 0; n < count; n++) {
      const id = `chat-${String(n).padStart(5, '0')}`;
      mkdirSync(join(sessions, id), { recursive: true });
      const updatedAt = new Date(Date.UTC(2026, 0, 1) + n * 60_000).toISOString();
      const log = template.replaceAll(TEMPLATE_ID, id).replaceAll('Chat TEMPLATE', title(n)).replaceAll(TEMPLATE_TIME, updatedAt);
      writeFileSync(join(sessions, id, 'events.jsonl'), log, { mode: 0o600 });
    }
    writeFileSync(done, `${new Date().toISOString()}\n`);
  }
  const bytes = readdirSync(sessions, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .reduce((n, d) => n + statSync(join(sessions, d.name, 'events.jsonl')).size, 0);
  return { dataDir, bytes, title };
}

/** Removes the chat index, so the next start reads every log. */
export function resetIndex(chats: ManyChats): void {
  rmSync(join(chats.dataDir, 'sessions', 'index.json'), { force: true });
}


/** Removes every chat's search filter (search-filter-file.ts), so the next search reads every log. */
export function resetFilters(chats: ManyChats): void {
  const sessions = join(chats.dataDir, 'sessions');
  for (const d of readdirSync(sessions, { withFileTypes: true })) if (d.isDirectory()) rmSync(join(sessions, d.name, 'search-filter.bin'), { force: true });
}
