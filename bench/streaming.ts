import { rmSync } from 'node:fs';
import type { Browser, Page } from '@playwright/test';
import { cpuMeter, launchChromium, longTasksSince, newPage, pageNow, recordLongTasks } from './lib/browser';
import { metricsFor, type Benchmark, type Metric } from './lib/metric';
import { withScope } from './lib/scoped';
import { startStack } from './lib/shell';
import { connectWsApi } from './lib/ws-api';
import { buildNaivePage } from './naive/build-naive';
import { deltasOf, longReply } from './streaming-text';

const m = metricsFor('streaming');
const DELAY_MS = 2; // between deltas, like the scripted server's SSE writer

interface Measured {
  cpuMsPerKToken: number;
  scriptMsPerKToken: number;
  longTasks: { start: number; duration: number }[];
  /** Page time the measured run started (Send), to tell long tasks at the start from later ones. */
  since: number;
  seconds: number;
  html: string;
}

async function measure(page: Page, run: () => Promise<string>, tokens: number): Promise<Measured> {
  const cpu = await cpuMeter(page);
  const since = await pageNow(page);
  const before = await cpu.read();
  const started = performance.now();
  const html = await run();
  const seconds = (performance.now() - started) / 1000;
  const after = await cpu.read();
  return {
    cpuMsPerKToken: ((after.task - before.task) * 1e6) / tokens,
    scriptMsPerKToken: ((after.script - before.script) * 1e6) / tokens,
    longTasks: await longTasksSince(page, since),
    since,
    seconds,
    html,
  };
}

/** The app: the reply streams from the scripted server through main and the WebSocket. */
async function appRun(browser: Browser, text: string, chunkChars: number, tokens: number) {
  return withScope(async (scope) => {
    const scenario = { name: 'bench-stream', turns: [{ kind: 'text' as const, text, chunkChars, delayMs: DELAY_MS }] };
    const { shell } = await startStack(scope, scenario);
    // A 20,000-token reply needs room: the default max_tokens (8,192) would cut it, as the API does.
    const settings = await connectWsApi(shell.url);
    await settings.call('setSettings', { patch: { maxTokens: 64_000 } });
    settings.close();
    const page = scope.add(await newPage(browser), (p) => p.context().close());
    await recordLongTasks(page);
    await page.goto(shell.url);
    await page.getByRole('textbox', { name: 'Message' }).fill('Explain the config loader in detail.');
    const result = await measure(
      page,
      async () => {
        await page.getByRole('button', { name: 'Send' }).click();
        await page.waitForFunction(
          (tail) => {
            const replies = document.querySelectorAll('article[aria-label="Claude"]');
            const last = replies[replies.length - 1];
            return !!last && last.getAttribute('aria-busy') === 'false' && (last.textContent ?? '').includes(tail);
          },
          text.slice(-20).trim(),
          { timeout: 300_000, polling: 100 },
        );
        return page.evaluate(() => [...document.querySelectorAll('article[aria-label="Claude"] .markdown')].at(-1)?.innerHTML ?? '');
      },
      tokens,
    );
    const api = scope.add(await connectWsApi(shell.url), (a) => a.close());
    const { sessions } = await api.call('listSessions', {});
    const { transcript } = await api.call('getSession', { sessionId: sessions[0]!.id });
    const reply = transcript.filter((i) => i.kind === 'assistant').at(-1);
    return { ...result, textExact: reply?.kind === 'assistant' && reply.text === text };
  });
}

/** The naive page: same deltas, same pacing, full re-render of the whole Markdown per delta. */
async function naiveRun(browser: Browser, url: string, text: string, chunkChars: number, tokens: number) {
  return withScope(async (scope) => {
    const page = scope.add(await newPage(browser), (p) => p.context().close());
    await recordLongTasks(page);
    await page.goto(url);
    const deltas = deltasOf(text, chunkChars);
    return measure(page, () => page.evaluate(({ d, ms }) => (window as unknown as { runNaive(d: string[], ms: number): Promise<string> }).runNaive(d, ms), { d: deltas, ms: DELAY_MS }), tokens);
  });
}

/** Streaming a long reply: long tasks, CPU per token, correctness, and the naive renderer beside it. */
export const streamingBench: Benchmark = async ({ quick }) => {
  const tokens = quick ? 2000 : 20_000;
  const text = longReply(tokens);
  const metrics: Metric[] = [];
  const naive = await buildNaivePage();
  try {
    await withScope(async (scope) => {
      const browser = scope.add(await launchChromium(), (b) => b.close());
      for (const rate of [1000, 5000]) {
        const chunkChars = (rate * 4 * DELAY_MS) / 1000; // 4 chars a token, one delta every DELAY_MS
        const app = await appRun(browser, text, chunkChars, tokens);
        const base = await naiveRun(browser, naive.url, text, chunkChars, tokens);
        const worst = Math.max(0, ...app.longTasks.map((t) => t.duration));
        const label = `${rate} tok/s`;
        const how = `${tokens} tokens (${text.length} chars of Markdown with code blocks) in ${chunkChars}-char deltas every ${DELAY_MS} ms from the scripted server; streamed in ${app.seconds.toFixed(1)} s (≈${(tokens / app.seconds).toFixed(0)} tok/s achieved)`;
        metrics.push(
          m(`${label} long tasks > 50 ms`, app.longTasks.length, '', `${how}; PerformanceObserver longtask in the app page, longest ${worst.toFixed(0)} ms; ${app.longTasks.filter((t) => t.start - app.since < 1000).length} of them in the first second after Send, at ${app.longTasks.map((t) => `+${(t.start - app.since).toFixed(0)} ms (${t.duration.toFixed(0)})`).join(', ') || '—'}`, { text: '0', met: app.longTasks.length === 0 }),
          m(`${label} reply rendered correctly`, app.textExact && app.html === base.html ? 'yes' : `no (text exact: ${app.textExact}, HTML equal to a one-shot render: ${app.html === base.html})`, '', 'getSession text === the scripted text, and the final .markdown HTML === the naive page\'s final render of the full text', {
            text: 'whole reply, exact',
            met: app.textExact && app.html === base.html,
          }),
          m(`${label} renderer CPU per 1k tokens`, app.cpuMsPerKToken, 'ms', `CDP Performance.getMetrics TaskDuration delta over the stream ÷ tokens (script alone ${app.scriptMsPerKToken.toFixed(1)} ms)`),
          m(`${label} naive renderer CPU per 1k tokens`, base.cpuMsPerKToken, 'ms', `same text and deltas in bench/naive (the app's Markdown re-rendered with flushSync on every delta); ${base.longTasks.length} long tasks, took ${base.seconds.toFixed(1)} s`),
          m(`${label} naive ÷ app CPU`, base.cpuMsPerKToken / app.cpuMsPerKToken, '×', 'ratio of the two lines above (the app also pays for the WebSocket, JSON and the store)'),
        );
      }
    });
  } finally {
    rmSync(naive.dir, { recursive: true, force: true });
  }
  return metrics;
};
