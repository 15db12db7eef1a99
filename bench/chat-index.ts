import { readFileSync } from 'node:fs';
import type { Browser } from '@playwright/test';
import { startWebShell } from '../e2e/support/web-shell';
import { startScriptedServer } from '../test-support/scripted-api/server';
import { launchChromium, newPage } from './lib/browser';
import { manyChats, resetFilters, resetIndex, type ManyChats } from './lib/many-chats';
import { metricsFor, type Benchmark, type Metric } from './lib/metric';
import { withScope } from './lib/scoped';
import { median, wallNow } from './lib/stats';
import { connectWsApi } from './lib/ws-api';

/**
 * Issue 22, the persisted chat index: a start lists chats from `sessions/index.json` and reads a
 * chat's log only when it is used. Measured through the web shell (the built `out/main/web.js`)
 * and Chromium, as a user starts it: spawn → the newest chat's title in the page's chat list; the
 * web shell's RSS once its list is served; the sidebar search with every chat only listed. A cold
 * start (no index: every log is read, as before the index) beside warm starts (the index there).
 */
const m = metricsFor('chat-index');

/**
 * VmRSS of the shell's main process: with a key in its environment the shell starts itself again
 * without it (common/secret-handoff.ts) and waits, so main is then its child.
 */
function mainRssMb(pid: number): number {
  const children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean);
  const main = children.length ? Number(children[0]) : pid;
  const status = readFileSync(`/proc/${main}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? Number.NaN) / 1024;
}

interface Start {
  /** spawn → listSessions answered over the WebSocket API (services created, the list served). */
  served: number;
  /** spawn → the newest chat's title shown in the page's chat list. */
  inPage: number;
  rss: number;
  listed: number;
  /** searchSessions with a text no chat holds, no search filters kept (each log read, its filter made); with a word every chat's messages hold (hits). */
  searchNone: number;
  /** The same no-match search again, the filters in place (search-filter-file.ts). */
  searchNoneFiltered: number;
  searchAll: number;
  hits: number;
}

async function startOnce(browser: Browser, chats: ManyChats, count: number, baseURL: string, search: boolean): Promise<Start> {
  return withScope(async (inner) => {
    const page = await newPage(browser);
    const started = wallNow();
    const shell = inner.add(await startWebShell({ baseURL, dataDir: chats.dataDir, startTimeoutMs: 900_000 }), (s) => s.stop());
    const api = inner.add(await connectWsApi(shell.url), (a) => a.close());
    const { sessions } = await api.call('listSessions', {});
    const served = wallNow() - started;
    await page.goto(shell.url);
    await page.getByRole('navigation', { name: 'Chats' }).getByText(chats.title(count - 1), { exact: true }).first().waitFor({ state: 'visible', timeout: 900_000 });
    const inPage = wallNow() - started;
    const rss = mainRssMb(shell.process.pid!);
    let searchNone = Number.NaN;
    let searchNoneFiltered = Number.NaN;
    let searchAll = Number.NaN;
    let hits = 0;
    if (search) {
      let t = wallNow();
      await api.call('searchSessions', { query: 'qqzz no such text' });
      searchNone = wallNow() - t;
      t = wallNow();
      await api.call('searchSessions', { query: 'another text none holds' });
      searchNoneFiltered = wallNow() - t;
      t = wallNow();
      // In every chat's replies (chat-turns.ts): each chat is found, from its messages, not its title.
      hits = (await api.call('searchSessions', { query: 'moves the check to the boundary' })).results.length;
      searchAll = wallNow() - t;
    }
    await page.context().close();
    return { served, inPage, rss, listed: sessions.length, searchNone, searchNoneFiltered, searchAll, hits };
  });
}

async function scenario(count: number, turns: number, runs: number, search: boolean): Promise<Metric[]> {
  const made = wallNow();
  const chats = manyChats(count, turns);
  const label = `${count.toLocaleString('en')} chats × ${turns} turns`;
  const what = `${label} (${(chats.bytes / 1024 ** 3).toFixed(2)} GB of logs; generated in ${((wallNow() - made) / 1000).toFixed(0)} s or taken from the cache in ${chats.dataDir})`;
  return withScope(async (scope) => {
    const scripted = scope.add(await startScriptedServer({ scenario: { name: 'echo', turns: [], onExhausted: 'echo' } }), (s) => s.close());
    const browser = scope.add(await launchChromium(), (b) => b.close());
    let cold: Start | null = null;
    if (process.env.WAYPOINT_BENCH_INDEX_COLD !== '0') {
      resetIndex(chats);
      cold = await startOnce(browser, chats, count, scripted.url, false);
    }
    const warm: Start[] = [];
    if (search) resetFilters(chats);
    for (let i = 0; i < runs; i++) warm.push(await startOnce(browser, chats, count, scripted.url, search && i === 0));
    const med = (pick: (s: Start) => number) => median(warm.map(pick));
    const all = warm.every((s) => s.listed === count) && (!cold || cold.listed === count);
    const list = (pick: (s: Start) => number) => `[${warm.map((s) => Math.round(pick(s))).join(', ')}]`;
    return [
      m(`start → first chat list in the page, ${label}`, med((s) => s.inPage), 'ms', `median of ${runs} starts with the index in place ${list((s) => s.inPage)}: spawn of the web shell on ${what} → the newest chat's title in the Chats list (Chromium already running)`, { text: '≤ 1000 ms', met: med((s) => s.inPage) <= 1000 }),
      m(`start → chat list served, ${label}`, med((s) => s.served), 'ms', `the same starts ${list((s) => s.served)}: spawn → listSessions answered over the WebSocket API`),
      m(`main RSS with the list served, ${label}`, med((s) => s.rss), 'MB', `VmRSS of the web shell once the page showed the list, the same starts ${list((s) => s.rss)}`, { text: '≤ 300 MB', met: med((s) => s.rss) <= 300 }),
      m(`chats listed, ${label}`, warm[0]!.listed, '', `listSessions length, every start (cold included): ${all ? 'all' : 'NOT all'} ${count} listed`, { text: `${count}`, met: all }),
      ...(cold ? [m(`cold start (no index) → first chat list in the page, ${label}`, cold.inPage, 'ms', `one start after sessions/index.json was removed: every log is read (the index is rebuilt from them); list served at ${cold.served.toFixed(0)} ms; RSS ${cold.rss.toFixed(0)} MB`)] : []),
      ...(search
        ? [
            m(`sidebar search, no match, first (filters made), ${label}`, warm[0]!.searchNone, 'ms', 'searchSessions right after the first warm start, with a text no chat holds and no search filter kept: every log read and its filter made'),
            m(`sidebar search, no match, filters kept, ${label}`, warm[0]!.searchNoneFiltered, 'ms', 'the next searchSessions with another text no chat holds: each log skipped by its filter (search-filter-file.ts)'),
            m(`sidebar search, a phrase every chat holds, ${label}`, warm[0]!.searchAll, 'ms', `searchSessions with a phrase in each chat's replies: ${warm[0]!.hits} of ${count} chats found`, { text: `all ${count} found`, met: warm[0]!.hits === count }),
          ]
        : []),
    ];
  });
}

/**
 * The chat index: start and memory with 1,000 long chats, and 10,000 chats listed and searchable.
 * WAYPOINT_BENCH_INDEX_RUNS (default 3), WAYPOINT_BENCH_INDEX_COLD=0 (no cold start) and
 * WAYPOINT_BENCH_INDEX_SEARCH=0 (no search; =long or =many: only there), WAYPOINT_BENCH_INDEX_ONLY=long|many shorten a run: a cold start of 1,000 long chats takes minutes.
 */
export const chatIndexBench: Benchmark = async ({ quick }) => {
  const runs = Number(process.env.WAYPOINT_BENCH_INDEX_RUNS ?? 3);
  // "0": no search; "long" or "many": only in that scenario (the long chats' first search reads 3.9 GB).
  const search = process.env.WAYPOINT_BENCH_INDEX_SEARCH ?? 'both';
  const only = process.env.WAYPOINT_BENCH_INDEX_ONLY; // "long" or "many": one scenario
  return [
    ...(only === 'many' ? [] : await scenario(quick ? 50 : 1_000, quick ? 30 : 300, runs, search === 'both' || search === 'long')),
    ...(only === 'long' ? [] : await scenario(quick ? 200 : 10_000, 10, runs, search === 'both' || search === 'many')),
  ];
};
