import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { startWebShell } from '../e2e/support/web-shell';
import { startScriptedServer } from '../test-support/scripted-api/server';
import { launchChromium, newPage } from './lib/browser';
import { metricsFor, type Benchmark, type Metric } from './lib/metric';
import { withScope } from './lib/scoped';
import { median, wallNow } from './lib/stats';
import { connectWsApi, waitIdle } from './lib/ws-api';

const m = metricsFor('startup');

/** Resident set size of a process in MB (Linux /proc; ps elsewhere is not worth a dependency). */
function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? Number.NaN);
  return kb / 1024;
}

function bundleMetrics(): Metric[] {
  const dir = 'out/renderer/assets';
  const files = readdirSync(dir).filter((f) => f.endsWith('.js'));
  const raw = files.reduce((n, f) => n + readFileSync(join(dir, f)).length, 0);
  const gz = files.reduce((n, f) => n + gzipSync(readFileSync(join(dir, f)), { level: 9 }).length, 0);
  const css = readdirSync(dir).filter((f) => f.endsWith('.css')).reduce((n, f) => n + gzipSync(readFileSync(join(dir, f)), { level: 9 }).length, 0);
  return [
    m('renderer JS, gzip', gz / 1024, 'KB', `gzip -9 of out/renderer/assets/*.js (${files.length} file(s), ${(raw / 1024).toFixed(0)} KB raw)`, { text: '< 350 KB', met: gz / 1024 < 350 }),
    m('renderer CSS, gzip', css / 1024, 'KB', 'gzip -9 of out/renderer/assets/*.css'),
  ];
}

async function uiReady(runs: number): Promise<Metric[]> {
  return withScope(async (scope) => {
    const browser = scope.add(await launchChromium(), (b) => b.close());
    const scripted = scope.add(await startScriptedServer({ scenario: { name: 'echo', turns: [] } }), (s) => s.close());
    const toUrl: number[] = [];
    const toReady: number[] = [];
    for (let i = 0; i < runs; i++) {
      const page = await newPage(browser);
      const started = wallNow();
      const shell = await startWebShell({ baseURL: scripted.url });
      try {
        toUrl.push(wallNow() - started);
        await page.goto(shell.url);
        await page.getByRole('textbox', { name: 'Message' }).waitFor({ state: 'visible' });
        toReady.push(wallNow() - started);
      } finally {
        await page.context().close();
        await shell.stop();
      }
    }
    const method = `median of ${runs}: spawn of node out/main/web.js (fresh data dir) → Chromium (already running) shows the "Message" textbox`;
    return [
      m('process start → UI ready', median(toReady), 'ms', method, { text: '< 1000 ms', met: median(toReady) < 1000 }),
      m('process start → URL printed', median(toUrl), 'ms', `median of ${runs}: spawn → the web shell prints its URL (listening)`),
    ];
  });
}

async function rssWithChats(count: number): Promise<Metric[]> {
  const dataDir = mkdtempSync(join(tmpdir(), 'waypoint-bench-rss-'));
  try {
    return await withScope(async (scope) => {
      const scripted = scope.add(await startScriptedServer({ scenario: { name: 'echo', turns: [] } }), (s) => s.close());
      const first = scope.add(await startWebShell({ baseURL: scripted.url, dataDir }), (s) => s.stop());
      const empty = rssMb(first.process.pid!);
      const api = scope.add(await connectWsApi(first.url), (a) => a.close());
      for (let i = 0; i < count; i++) {
        const session = await api.call('newSession', {});
        const from = api.events.length;
        await api.call('sendMessage', { sessionId: session.id, text: `Chat ${i}: what does a plan panel show? ${'Some context. '.repeat(20)}` });
        await waitIdle(api, session.id, from);
      }
      const live = rssMb(first.process.pid!);
      api.close();
      await first.stop();
      const second = scope.add(await startWebShell({ baseURL: scripted.url, dataDir }), (s) => s.stop());
      const again = scope.add(await connectWsApi(second.url), (a) => a.close());
      const { sessions } = await again.call('listSessions', {});
      const stored = rssMb(second.process.pid!);
      return [
        m(`main RSS, ${count} chats created in this process`, live, 'MB', `VmRSS of the web shell after ${count} chats (one exchange each, echo replies) created over the WebSocket API; ${empty.toFixed(0)} MB with none`),
        m(`main RSS, restarted on ${sessions.length} stored chats`, stored, 'MB', `VmRSS after restarting on the same data dir and listSessions (${sessions.length} of ${count} chats came back from disk)`),
      ];
    });
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Start-up: time to a usable UI, what the renderer costs to download, what main holds. */
export const startupBench: Benchmark = async ({ quick }) => [...bundleMetrics(), ...(await uiReady(quick ? 1 : 5)), ...(await rssWithChats(quick ? 5 : 100))];
