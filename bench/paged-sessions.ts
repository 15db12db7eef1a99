import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { loadChat } from '../src/main/store/load-chats';
import { LOG_FILE, SESSIONS_DIR } from '../src/main/store/chat-logs';
import { writeChatLog } from './lib/chat-log';
import { metricsFor, type Benchmark, type Metric } from './lib/metric';
import { withScope } from './lib/scoped';
import { startStack } from './lib/shell';
import { median, wallNow } from './lib/stats';
import { connectWsApi } from './lib/ws-api';

const m = metricsFor('paged-sessions');
const PAGE = 50;

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

function heapMb(): number {
  gc();
  gc();
  return process.memoryUsage().heapUsed / 1024 / 1024;
}

function timeMs(runs: number, work: () => unknown): number {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    work();
    times.push(performance.now() - started);
  }
  return median(times);
}

async function timeCallMs(runs: number, work: () => Promise<unknown>): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await work();
    times.push(performance.now() - started);
  }
  return median(times);
}

interface Chat {
  id: string;
  label: string;
  items: number;
}

/** The app's load path on one chat, in this process: what it keeps, and what a page costs. */
function inProcess(dataDir: string, chat: Chat): Metric[] {
  const path = join(dataDir, SESSIONS_DIR, chat.id, LOG_FILE);
  const before = heapMb();
  const started = performance.now();
  const loaded = loadChat(path, chat.id, () => {}, false);
  const loadMs = performance.now() - started;
  const session = loaded!.restored.session;
  const held = heapMb() - before;
  const n = session.itemCount;
  const oldId = session.itemsBetween(1, 2)[0]!.id;
  const rows = [
    m(`${chat.label}: load (read + replay)`, loadMs, 'ms', `loadChat on the ${(statSync(path).size / 1024 / 1024).toFixed(1)} MB log, one run, in the bench process`),
    m(`${chat.label}: JS heap held by the loaded chat`, held, 'MB', 'heapUsed after a forced GC with the chat held, minus before (ChatSession: transcript index, API history, plan)'),
    m(`${chat.label}: last page (${PAGE} items)`, timeMs(20, () => session.itemsBetween(n - PAGE, n)), 'ms', 'itemsBetween(n − 50, n), median of 20'),
    m(`${chat.label}: first page (${PAGE} items)`, timeMs(20, () => session.itemsBetween(0, PAGE)), 'ms', 'itemsBetween(0, 50), median of 20 (read from the log each time when paged)'),
    m(`${chat.label}: a middle page (${PAGE} items)`, timeMs(20, () => session.itemsBetween(Math.floor(n / 2), Math.floor(n / 2) + PAGE)), 'ms', 'itemsBetween at the middle, median of 20'),
    m(`${chat.label}: an old item by id`, timeMs(50, () => session.item(oldId)), 'ms', 'item(id) of the second item, median of 50'),
    m(`${chat.label}: the whole transcript`, timeMs(5, () => session.transcript), 'ms', `transcript (${n} items), median of 5`),
  ];
  return rows;
}

/** The same chats through the built web shell: start-up, getSession, find in chat, the sidebar search. */
async function throughShell(dataDir: string, chats: Chat[], rich: Chat, findWord: string): Promise<Metric[]> {
  return withScope(async (scope) => {
    const started = wallNow();
    const { shell } = await startStack(scope, { name: 'echo', turns: [], onExhausted: 'echo' }, { dataDir, startTimeoutMs: 120_000 });
    const api = scope.add(await connectWsApi(shell.url), (a) => a.close());
    await api.call('listSessions', {});
    const ready = wallNow() - started;
    const rows: Metric[] = [m(`web shell start → chats listed (${chats.map((c) => c.label).join(', ')})`, ready, 'ms', 'spawn of out/main/web.js on a data dir holding these chats → listSessions answered')];
    for (const chat of chats) {
      rows.push(m(`${chat.label}: getSession`, await timeCallMs(5, () => api.call('getSession', { sessionId: chat.id })), 'ms', 'round trip over the WebSocket, median of 5 (the whole transcript until the paged contract lands)'));
    }
    rows.push(
      m(`${rich.label}: find in chat, a word of the first turn`, await timeCallMs(5, () => api.call('findInChat', { sessionId: rich.id, query: findWord })), 'ms', `findInChat "${findWord}", round trip, median of 5`),
      m(`${rich.label}: find in chat, no match`, await timeCallMs(5, () => api.call('findInChat', { sessionId: rich.id, query: 'qqzz no such text' })), 'ms', 'findInChat with no match (every item looked at), median of 5'),
      m('sidebar search, no match', await timeCallMs(5, () => api.call('searchSessions', { query: 'qqzz no such text' })), 'ms', `searchSessions over these ${chats.length} chats, no match, median of 5`),
    );
    return rows;
  });
}

/** Issue 15 item 2: a chat's pages, find and getSession on the 10,000-message chat and the 300-turn chat. */
export const pagedSessionsBench: Benchmark = async ({ quick }) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'waypoint-bench-paged-'));
  try {
    const messages = quick ? 1_000 : 10_000;
    const turns = quick ? 30 : 300;
    const many = writeChatLog(dataDir, { id: 'many-messages', title: 'Many messages', turns: messages / 2, rich: false, updatedAt: '2026-01-02T00:00:00.000Z' });
    const rich = writeChatLog(dataDir, { id: 'working-chat', title: 'Working chat', turns, rich: true, updatedAt: '2026-01-03T00:00:00.000Z' });
    const chats: Chat[] = [
      { id: 'many-messages', label: `${messages.toLocaleString('en')}-message chat`, items: many.items },
      { id: 'working-chat', label: `${turns}-turn chat`, items: rich.items },
    ];
    const rows = chats.flatMap((chat) => inProcess(dataDir, chat));
    return [...rows, ...(await throughShell(dataDir, chats, chats[1]!, 'transform0('))];
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
};
