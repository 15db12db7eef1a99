import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Scenario, ScriptedTurn } from '../test-support/scripted-api/scenario';
import { writeChatLog } from './lib/chat-log';
import { metricsFor, type Benchmark, type Metric } from './lib/metric';
import { withScope } from './lib/scoped';
import { startStack } from './lib/shell';
import { median, sleep, wallNow } from './lib/stats';
import { connectWsApi, waitIdle } from './lib/ws-api';

const m = metricsFor('main-memory');
/** Model turns per user message: tool turns (a list_directory card each) and a closing text. */
const TOOL_TURNS = 4;

function rssMb(pid: number): number {
  const kb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? Number.NaN);
  return kb / 1024;
}

interface Memory {
  rss: number;
  heapTotal: number;
  heapUsed: number;
  /** C++ objects bound to JS (Buffers among them), and ArrayBuffers alone. */
  external: number;
  arrayBuffers: number;
}

/** Asks the probe (bench/lib/memory-probe.mjs) for full GCs and main's memory once it settled, in MB. */
async function memoryAfterGc(pid: number, out: string): Promise<Memory> {
  rmSync(out, { force: true });
  process.kill(pid, 'SIGUSR2');
  const deadline = Date.now() + 10_000;
  while (!existsSync(out)) {
    if (Date.now() > deadline) throw new Error('the memory probe did not answer');
    await sleep(20);
  }
  await sleep(20); // the probe writes the file in one call; let it finish
  const usage = JSON.parse(readFileSync(out, 'utf8')) as Memory;
  const mb = (bytes: number) => bytes / 1024 / 1024;
  return { rss: mb(usage.rss), heapTotal: mb(usage.heapTotal), heapUsed: mb(usage.heapUsed), external: mb(usage.external), arrayBuffers: mb(usage.arrayBuffers) };
}

function runScenario(messages: number): Scenario {
  const turns: ScriptedTurn[] = [];
  for (let u = 0; u < messages; u++) {
    for (let t = 0; t < TOOL_TURNS; t++) turns.push({ kind: 'tool_use', text: `Looking at part ${u}.${t}.`, calls: [{ name: 'list_directory', input: { path: '.' } }], delayMs: 0, chunkChars: 100_000 });
    turns.push({ kind: 'text', text: `Done with request ${u}: ${'the files are listed above. '.repeat(8)}`, delayMs: 0, chunkChars: 100_000 });
  }
  return { name: 'bench-main-memory', turns, onExhausted: 'echo' };
}

/**
 * Main's memory at points of one long chat's run: it must stay flat over `turns` (issue 15 item 8);
 * the run goes on to twice that, to show whether what grows levels off.
 */
async function longRun(turns: number): Promise<Metric[]> {
  const perMessage = TOOL_TURNS + 1;
  const messages = (2 * turns) / perMessage;
  const samplesAt = [turns / 5, (3 * turns) / 5, turns, 2 * turns];
  const probeOut = join(mkdtempSync(join(tmpdir(), 'waypoint-bench-mem-')), 'memory.json');
  return withScope(async (scope) => {
    const probe = { NODE_OPTIONS: `--import ${pathToFileURL(resolve('bench/lib/memory-probe.mjs')).href}`, WAYPOINT_BENCH_MEMORY_OUT: probeOut };
    const { shell } = await startStack(scope, runScenario(messages), { extraEnv: probe });
    const api = scope.add(await connectWsApi(shell.url), (a) => a.close());
    const pid = shell.process.pid!;
    const chat = await api.call('newSession', {});
    const samples: { turns: number; mb: number; afterGc: Memory }[] = [];
    for (let u = 0; u < messages; u++) {
      const from = api.events.length;
      await api.call('sendMessage', { sessionId: chat.id, text: `Request ${u}: list the files again.` });
      await waitIdle(api, chat.id, from, 120_000);
      // The client keeps every event; main must not. Drop ours so the bench itself stays small.
      api.events.splice(0);
      api.arrivals.splice(0);
      const done = (u + 1) * perMessage;
      if (samplesAt.includes(done)) {
        await sleep(300); // let the turn's last writes and timers settle
        const mb = rssMb(pid);
        samples.push({ turns: done, mb, afterGc: await memoryAfterGc(pid, probeOut) });
      }
    }
    type Sample = (typeof samples)[number];
    const within = samples.filter((s) => s.turns <= turns);
    const drift = (of: Sample[], pick: (s: Sample) => number) => Math.max(...of.map((s) => Math.abs(pick(s) - pick(of[0]!)) / pick(of[0]!)));
    const pct = (x: number) => `${(x * 100).toFixed(1)} %`;
    const list = samples.map((s) => `${s.turns}: ${s.mb.toFixed(1)}`).join(', ');
    const listGc = samples.map((s) => `${s.turns}: ${[s.afterGc.rss, s.afterGc.heapTotal, s.afterGc.heapUsed, s.afterGc.external, s.afterGc.arrayBuffers].map((x) => x.toFixed(1)).join(' / ')}`).join(', ');
    const worstAfterGc = drift(within, (s) => s.afterGc.rss);
    const warned = /MaxListenersExceededWarning/.test(shell.output());
    const run = `one chat, ${messages} user messages × ${TOOL_TURNS} tool turns + a text reply, scripted server`;
    return [
      m(`RSS as read over a ${2 * turns}-turn run`, list, 'MB', `VmRSS of the web shell after ${samplesAt.join(', ')} model turns (${run}); includes garbage V8 has not collected yet; drift over ${turns} turns ${pct(drift(within, (s) => s.mb))}; MaxListenersExceededWarning in main's output: ${warned ? 'yes' : 'no'}`),
      m(`memory after a settled GC over the ${2 * turns}-turn run`, listGc, 'MB', 'the same points: main forces two full GCs, waits 250 ms for freed pages to go back to the OS (bench/lib/memory-probe.mjs, preloaded with --import) and reports process.memoryUsage(): RSS / heapTotal / heapUsed / external / arrayBuffers'),
      m(`RSS drift after a settled GC over ${turns} turns`, worstAfterGc * 100, '%', `largest |sample − first| ÷ first over ${samplesAt.filter((t) => t <= turns).join(', ')} turns; heapUsed drift ${pct(drift(within, (s) => s.afterGc.heapUsed))} (the chat's own transcript and history are in it)`, { text: 'flat (±10 %)', met: worstAfterGc <= 0.1 }),
      m(`RSS drift after a settled GC over ${2 * turns} turns`, drift(samples, (s) => s.afterGc.rss) * 100, '%', `as above, up to ${2 * turns} turns; heapUsed drift ${pct(drift(samples, (s) => s.afterGc.heapUsed))}`),
    ];
  }).finally(() => rmSync(join(probeOut, '..'), { recursive: true, force: true }));
}

/** Main's RSS and JS heap with `count` chats of `turns` rich turns on disk, listed once; its start-up and sidebar search with them. */
export async function manyChats(count: number, turns: number): Promise<Metric[]> {
  const dataDir = mkdtempSync(join(tmpdir(), 'waypoint-bench-chats-'));
  const probeOut = join(dataDir, 'memory.json');
  try {
    let bytes = 0;
    for (let i = 0; i < count; i++) {
      const id = `chat-${String(i).padStart(3, '0')}`;
      writeChatLog(dataDir, { id, title: `Chat ${i}`, turns, rich: true, updatedAt: new Date(Date.UTC(2026, 0, 1, 0, i)).toISOString() });
      bytes += statSync(join(dataDir, 'sessions', id, 'events.jsonl')).size;
    }
    const what = `${count} chats of ${turns} rich turns (${(bytes / 1024 / 1024).toFixed(0)} MB of logs, written as the app's own logs)`;
    return await withScope(async (scope) => {
      const probe = { NODE_OPTIONS: `--import ${pathToFileURL(resolve('bench/lib/memory-probe.mjs')).href}`, WAYPOINT_BENCH_MEMORY_OUT: probeOut };
      const started = wallNow();
      const { shell } = await startStack(scope, { name: 'echo', turns: [], onExhausted: 'echo' }, { dataDir, extraEnv: probe, startTimeoutMs: 300_000 });
      const api = scope.add(await connectWsApi(shell.url), (a) => a.close());
      const { sessions } = await api.call('listSessions', {});
      const ready = wallNow() - started;
      await sleep(300);
      const pid = shell.process.pid!;
      const asRead = rssMb(pid);
      const afterGc = await memoryAfterGc(pid, probeOut);
      const searches: number[] = [];
      for (let i = 0; i < 3; i++) {
        const t = wallNow();
        await api.call('searchSessions', { query: 'qqzz no such text' });
        searches.push(wallNow() - t);
      }
      const label = `${count} chats × ${turns} turns`;
      return [
        m(`RSS with ${label} listed`, asRead, 'MB', `VmRSS of the web shell started on ${what}, after listSessions returned ${sessions.length}`, { text: `report (all ${count} listed)`, met: sessions.length === count }),
        m(`RSS / JS heap after a forced GC, ${label}`, `${afterGc.rss.toFixed(1)} / ${afterGc.heapUsed.toFixed(1)} MB`, '', 'the same, right after main forces a full GC (bench/lib/memory-probe.mjs): RSS / heapUsed'),
        m(`start → chats listed, ${label}`, ready, 'ms', `spawn of the web shell on ${what} → listSessions answered`),
        m(`sidebar search, no match, ${label}`, median(searches), 'ms', 'searchSessions over every chat with a text none holds (each chat looked through), median of 3'),
      ];
    });
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Main's memory: flat over a long run, and what 100 listed chats cost. */
export const mainMemoryBench: Benchmark = async ({ quick }) => [
  ...(await longRun(quick ? 50 : 500)),
  ...(await manyChats(quick ? 10 : 100, 10)),
  ...(await manyChats(quick ? 10 : 100, quick ? 30 : 300)),
];
