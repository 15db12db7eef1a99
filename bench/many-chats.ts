import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { WaypointEvent } from '../src/shared/contract';
import type { TranscriptItem } from '../src/shared/transcript';
import { startWebShell } from '../e2e/support/web-shell';
import { startScriptedServer } from '../test-support/scripted-api/server';
import { cpuMeter, launchChromium, longTasksSince, newPage, pageNow, recordLongTasks } from './lib/browser';
import { metricsFor, type Benchmark, type Metric } from './lib/metric';
import { withScope } from './lib/scoped';
import { median, percentile, sleep } from './lib/stats';
import { connectWsApi, type WsApi } from './lib/ws-api';
import { firstMessage, manyChatsTurn, repliesPerChat, replyText, type ManyChatsScript } from './many-chats-scenario';
import { describeFrames, describeKeys, framesOnTime, totals, typingControls, watchKeyParts } from './lib/key-paint';
import { frameIntervals } from './lib/frames';
import { watchDomChurn } from './lib/dom-churn';

const m = metricsFor('many-chats');
export const LOOP_PROBE = pathToFileURL(resolve('bench/lib/loop-delay-probe.mjs')).href;

export interface LoopDelay {
  count: number;
  p50: number;
  p99: number;
  max: number;
  /** Main's user + system CPU over the span. */
  cpuMs: number;
}

/** Asks main's probe (bench/lib/loop-delay-probe.mjs) for its histogram since the last ask, and starts a new one. */
export async function readLoopDelay(pid: number, file: string): Promise<LoopDelay> {
  rmSync(file, { force: true });
  process.kill(pid, 'SIGUSR2');
  for (let waited = 0; !existsSync(file); waited += 20) {
    if (waited > 5_000) throw new Error('main\'s event-loop probe did not answer');
    await sleep(20);
  }
  await sleep(20); // written in one call; let it finish
  return JSON.parse(readFileSync(file, 'utf8')) as LoopDelay;
}

/** Every item of a chat, paging back from the last page getSession sends. */
async function wholeTranscript(api: WsApi, sessionId: string): Promise<TranscriptItem[]> {
  const opened = await api.call('getSession', { sessionId });
  let items = opened.transcript;
  let older = opened.olderItems;
  while (older > 0 && items[0]) {
    const page = await api.call('getTranscriptPage', { sessionId, beforeItemId: items[0].id });
    items = [...page.items, ...items];
    older = page.olderItems;
  }
  return items;
}

/** Chats whose run started and is idle again, read from the events a WebSocket client has seen. */
function finishedChats(api: WsApi, ids: readonly string[]): number {
  const started = new Set<string>();
  const idle = new Set<string>();
  for (const e of api.events) {
    if (e.type !== 'run_state' || !ids.includes(e.sessionId)) continue;
    if (e.state.status === 'idle') {
      if (started.has(e.sessionId)) idle.add(e.sessionId);
    } else {
      started.add(e.sessionId);
      idle.delete(e.sessionId);
    }
  }
  return idle.size;
}

/**
 * Issue 24: `chats` chats stream at once through the scripted server (each a plan worked through a
 * step a reply, every reply a long Markdown text at ≈ 5,000 tok/s) while a person types in the
 * chat in view. Reads key → paint and long tasks in Chromium, main's event-loop delay (perf_hooks,
 * preloaded probe), both processes' CPU, and afterwards that every chat holds every reply whole.
 */
export const manyChatsBench: Benchmark = async ({ quick }) => {
  // WAYPOINT_BENCH_CHATS=1 gives the same chat streaming alone, to tell its own cost from the others'.
  const chats = Number(process.env.WAYPOINT_BENCH_CHATS ?? (quick ? 3 : 10));
  // 100 characters (≈ 25 tokens) every 5 ms: 5,000 tok/s per chat. (40 every 2 ms, as the streaming
  // benchmark paces one chat, is more timers than the benchmark's own process keeps up with for ten.)
  const script: ManyChatsScript = { steps: quick ? 2 : 6, tokensPerReply: quick ? 400 : 2_500, chunkChars: 100, delayMs: 5 };
  const probeDir = mkdtempSync(join(tmpdir(), 'waypoint-bench-loop-'));
  const loopOut = join(probeDir, 'loop.json');
  try {
    return await withScope(async (scope) => {
      const scripted = scope.add(await startScriptedServer({ scenario: { name: 'bench-many-chats', turns: [], gated: true }, respond: (body) => manyChatsTurn(script, body) }), (s) => s.close());
      const shell = scope.add(await startWebShell({ baseURL: scripted.url, extraEnv: { NODE_OPTIONS: `--import ${LOOP_PROBE}`, WAYPOINT_BENCH_LOOP_OUT: loopOut } }), (s) => s.stop());
      const pid = shell.process.pid!;
      const api = scope.add(await connectWsApi(shell.url), (a) => a.close());
      await api.call('setSettings', { patch: { runsAtOnce: chats } });

      const browser = scope.add(await launchChromium(), (b) => b.close());
      const page = scope.add(await newPage(browser), (p) => p.context().close());
      await recordLongTasks(page);
      await page.goto(shell.url);
      const box = page.getByRole('textbox', { name: 'Message' });
      await box.waitFor();
      // Every chat is started as a person starts one (New chat, type, Send), so this tab holds each
      // chat's transcript, as it does for chats a person has visited; chat 0 is then opened again
      // and stays in view. The scripted server holds each request until the span starts.
      const nav = page.getByRole('navigation', { name: 'Chats' });
      const ids: string[] = [];
      for (let k = 0; k < chats; k++) {
        if (k > 0) await nav.getByRole('button', { name: 'New chat', exact: true }).first().click();
        const mark = api.events.length;
        await box.fill(firstMessage(k));
        await page.getByRole('button', { name: 'Send' }).click();
        const sent = (await api.waitForEvent((e) => e.type === 'transcript_item' && e.item.kind === 'user' && e.item.text === firstMessage(k), 10_000, mark)) as Extract<WaypointEvent, { type: 'transcript_item' }>;
        if (ids.includes(sent.sessionId)) throw new Error(`chat ${k} was sent to chat ${ids.indexOf(sent.sessionId)}`);
        ids.push(sent.sessionId);
      }
      await page.locator('button.chat-link', { hasText: firstMessage(0).slice(0, 8) }).first().click();
      await page.getByRole('article', { name: 'You' }).filter({ hasText: firstMessage(0) }).first().waitFor();

      const cpu = await cpuMeter(page);
      const since = await pageNow(page);
      const cpuBefore = await cpu.read();
      // WAYPOINT_BENCH_PROFILE=file.cpuprofile: the renderer's CPU profile over the span (open it in DevTools).
      const profiler = process.env.WAYPOINT_BENCH_PROFILE ? await page.context().newCDPSession(page) : null;
      await profiler?.send('Profiler.enable');
      await profiler?.send('Profiler.start');
      // WAYPOINT_BENCH_TRACE=file.json: a Chromium trace over the span (open it in DevTools' Performance panel).
      if (process.env.WAYPOINT_BENCH_TRACE) await browser.startTracing(page, { path: process.env.WAYPOINT_BENCH_TRACE, categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', ...(process.env.WAYPOINT_BENCH_TRACE_INVALIDATIONS ? ['disabled-by-default-devtools.timeline.invalidationTracking'] : [])] });
      await readLoopDelay(pid, loopOut); // starts the measured span
      const started = performance.now();
      // From here every request is answered as soon as it comes (the gate let through one at a time).
      let releasing = true;
      void (async () => {
        while (releasing) await scripted.release(1);
      })();
      scope.add(null, () => (releasing = false));

      // Typing in the chat in view until every chat is done (a person writing the next message).
      const readKeys = await watchKeyParts(page);
      const readFrames = await frameIntervals(page);
      const readChurn = await watchDomChurn(page);
      await box.fill('');
      const deadline = performance.now() + (quick ? 60_000 : 300_000);
      while (finishedChats(api, ids) < chats && performance.now() < deadline) {
        await page.keyboard.type('typing while the chats stream ', { delay: 40 });
      }
      const seconds = (performance.now() - started) / 1000;
      const frames = await readFrames();
      const loop = await readLoopDelay(pid, loopOut);
      const cpuAfter = await cpu.read();
      if (process.env.WAYPOINT_BENCH_TRACE) await browser.stopTracing();
      if (profiler) writeFileSync(process.env.WAYPOINT_BENCH_PROFILE!, JSON.stringify((await profiler.send('Profiler.stop')).profile));
      await sleep(200); // the last keys' paint
      const keyParts = await readKeys();
      const keys = totals(keyParts);
      const churn = await readChurn();
      const longTasks = await longTasksSince(page, since);
      const controls = await typingControls(page, browser, keyParts.length);

      // Nothing lost: every chat's replies, whole and in order, and its plan done.
      const problems: string[] = [];
      for (const [k, sessionId] of ids.entries()) {
        const replies = (await wholeTranscript(api, sessionId)).filter((i) => i.kind === 'assistant');
        const expected = Array.from({ length: repliesPerChat(script) }, (_, r) => replyText(script, k, r));
        const wrong = expected.findIndex((text, r) => replies[r]?.kind !== 'assistant' || replies[r].text !== text || replies[r].status !== 'done');
        if (replies.length !== expected.length || wrong !== -1) problems.push(`chat ${k}: ${replies.length}/${expected.length} replies, first wrong ${wrong}`);
        const { plan } = await api.call('getPlan', { sessionId });
        if (!plan || plan.summary.completed !== script.steps) problems.push(`chat ${k}: plan ${plan?.summary.completed ?? 'none'}/${script.steps}`);
      }
      // Its first line and the closing sentence every reply ends with (the Markdown between is rendered).
      const lastHead = `Chat 0, reply ${repliesPerChat(script) - 1}.`;
      const shown = await page.evaluate((head) => [...document.querySelectorAll('article[aria-label="Claude"]')].some((a) => (a.textContent ?? '').includes(head) && (a.querySelector('.markdown')?.textContent ?? '').trimEnd().endsWith('That is the whole loader.')), lastHead);
      if (!shown) problems.push(`the chat in view does not show its last reply (${await page.evaluate(() => [...document.querySelectorAll('article')].map((a) => `${a.getAttribute('aria-label')}: ${(a.textContent ?? '').slice(0, 30)}…${(a.textContent ?? '').slice(-30)}`).join(' | '))})`);

      const tokens = chats * repliesPerChat(script) * script.tokensPerReply;
      const how = `${chats} chats at once, each ${repliesPerChat(script)} replies of ${script.tokensPerReply} tokens (${script.chunkChars}-char deltas every ${script.delayMs} ms from the scripted server) with a ${script.steps}-step plan worked through a step a reply; ${(tokens / seconds).toFixed(0)} tok/s achieved in all over ${seconds.toFixed(1)} s`;
      const p95 = percentile(keys, 95);
      const worst = Math.max(0, ...longTasks.map((t) => t.duration));
      const metrics: Metric[] = [
        m('typing in the chat in view: key → paint, p95', p95, 'ms', `${keys.length} keys typed while they streamed (Playwright, 40 ms apart); keydown's timestamp → a task after the next animation frame; median ${median(keys).toFixed(1)} ms, max ${Math.max(...keys).toFixed(1)} ms. ${how}`, { text: '≤ 16 ms', met: keys.length > 0 && p95 <= 16 }),
        m('typing while they stream: where a key\'s time goes', describeKeys(keyParts), '', 'the same keys split (bench/lib/key-paint.ts): input delay = the main thread busy when the key came; wait for the next frame = the frame clock (a page already drawing waits for the next tick); the frame\'s own work = style, layout, paint of the frame that shows the key'),
        m('frame rate while they stream: frames on time', framesOnTime(frames), '%', `an animation-frame loop over the span (bench/lib/frames.ts): the share of frame intervals that kept the 60 Hz clock (≤ 25 ms); ${describeFrames(frames)}`),
        ...controls.map(([name, parts, detail]) => m(name, percentile(totals(parts), 95), 'ms', `${detail}; ${describeKeys(parts)}`)),
        m('renderer long tasks > 50 ms', longTasks.length, '', `PerformanceObserver longtask from Send to the last chat done; longest ${worst.toFixed(0)} ms`, { text: '0', met: longTasks.length === 0 }),
        m('main event-loop delay p99', loop.p99, 'ms', `perf_hooks monitorEventLoopDelay (resolution 1 ms, so ≈ 1 ms when idle) over the same span, ${loop.count} samples; median ${loop.p50.toFixed(1)} ms, max ${loop.max.toFixed(1)} ms`, { text: '≤ 20 ms', met: loop.p99 <= 20 }),
        m('main CPU', loop.cpuMs / seconds, 'ms/s', `main's user + system CPU (process.cpuUsage in the probe, every thread) over the span ÷ its seconds; ${(loop.cpuMs / 1000).toFixed(1)} s in all`),
        m('renderer CPU', ((cpuAfter.task - cpuBefore.task) * 1000) / seconds, 'ms/s', `CDP Performance.getMetrics TaskDuration over the span ÷ its seconds (script alone ${(((cpuAfter.script - cpuBefore.script) * 1000) / seconds).toFixed(0)} ms/s)`),
        m('renderer: elements built over the span', churn.added, '', `elements inserted into the page (MutationObserver on the document, each inserted subtree counted whole) from the span's start to its end, ${churn.removed} removed; a count, which load does not change; by tag: ${churn.byTag}`),
        m('span: Send → every chat done', seconds, 's', how),
        m('nothing lost', problems.length === 0 ? 'yes' : `no: ${problems.join('; ')}`, '', 'every chat\'s replies (getSession + getTranscriptPage) equal the scripted texts, in order and done; every plan complete (getPlan); the chat in view shows its last reply', {
          text: 'every reply whole',
          met: problems.length === 0,
        }),
      ];
      return metrics;
    });
  } finally {
    rmSync(probeDir, { recursive: true, force: true });
  }
};
