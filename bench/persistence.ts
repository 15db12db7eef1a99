/**
 * Persistence numbers (not pass/fail): `npx tsx bench/persistence.ts [--kills N]`.
 * 1. Append latency of the session log under the chosen fsync policy (write(2) per record,
 *    async coalesced fsync at turn boundaries) against fsync on every record.
 * 2. Time to load (read + validate + replay + restore) a 10,000-event chat.
 * 3. More kill runs than the CI test: SIGKILL the built web shell at random points and check
 *    every log (needs `npx electron-vite build` first).
 */
import { fsyncSync, openSync, writeSync, closeSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { plansStructured } from '../test-support/scenarios/plans-structured';
import { startScriptedServer } from '../test-support/scripted-api/server';
import { checkLogs, kill, launch, requireBuiltShell } from '../test-support/main/kill-harness';
import type { LogEntry } from '../src/main/store/log-records';
import { readLog } from '../src/main/store/log-reader';
import { ChatLogWriter } from '../src/main/store/log-writer';
import { replay } from '../src/main/store/replay';
import { restoreChat } from '../src/main/store/restore-chat';

const root = mkdtempSync(join(tmpdir(), 'waypoint-bench-'));
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
const fmt = (ms: number) => `${(ms * 1000).toFixed(1)} µs`;

const summary = { id: 'bench', title: 'Bench', createdAt: '2025-01-01T00:00:00.000Z', updatedAt: '2025-01-01T00:00:00.000Z' };
const plan = (version: number) => ({
  id: 'p1', dialect: 'structured' as const, goal: 'Bench goal', status: 'active' as const, version, createdAt: 'x', updatedAt: 'x',
  steps: Array.from({ length: 8 }, (_, i) => ({ id: i + 1, title: `Step ${i + 1} of the benchmark plan`, status: 'pending' as const, dependsOn: [], notes: [], attempts: [] })),
  summary: { total: 8, completed: 0, in_progress: 0, pending: 8, failed: 0, skipped: 0, percent: 0 },
});

/** A realistic mix: streamed text, tool cards, history appends, plan updates, run states. */
function entry(i: number): LogEntry {
  switch (i % 10) {
    case 0:
      return { type: 'run', state: { status: 'running', phase: 'requesting' } };
    case 1:
      return { type: 'item', item: { id: `a${i}`, createdAt: 'x', kind: 'assistant', text: '', status: 'streaming' } };
    case 2:
    case 3:
    case 4:
      return { type: 'text', itemId: `a${i - (i % 10) + 1}`, text: 'Some streamed words from Claude, a line or so at a time. '.repeat(2) };
    case 5:
      return { type: 'item', item: { id: `a${i - 4}`, createdAt: 'x', kind: 'assistant', text: 'Final text of the reply. '.repeat(12), status: 'done' } };
    case 6:
      return { type: 'history', from: Math.floor(i / 5), messages: [{ role: 'assistant', content: [{ type: 'text', text: 'Final text. '.repeat(12) }, { type: 'tool_use', id: `t${i}`, name: 'read_file', input: { path: 'src/app.ts' } }] }] };
    case 7:
      return { type: 'item', item: { id: `c${i}`, createdAt: 'x', kind: 'tool_call', toolUseId: `t${i - 1}`, name: 'read_file', summary: 'Read src/app.ts', input: { path: 'src/app.ts' }, status: 'done', result: 'export const x = 1;\n'.repeat(20), durationMs: 3 } };
    case 8:
      return { type: 'plan', version: Math.floor(i / 10) + 1, plan: plan(Math.floor(i / 10) + 1) };
    default:
      return { type: 'history', from: Math.floor(i / 5) + 1, messages: [{ role: 'user', content: [{ type: 'tool_result', tool_use_id: `t${i - 3}`, content: 'export const x = 1;\n'.repeat(20) }] }] };
  }
}

async function appendLatency(count: number): Promise<void> {
  const path = join(root, 'append', 'events.jsonl');
  const writer = new ChatLogWriter(path);
  writer.append({ type: 'created', session: summary });
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    writer.append(entry(i));
    times.push(performance.now() - started);
    if (i % 50 === 0) await new Promise((r) => setImmediate(r)); // let the async fsyncs run, as the app's event loop would
  }
  await writer.flushed();
  writer.close();
  times.sort((a, b) => a - b);
  console.log(`append (policy: write per record, async fsync at boundaries), ${count} records: p50 ${fmt(percentile(times, 50))}, p99 ${fmt(percentile(times, 99))}, max ${fmt(times.at(-1)!)}`);

  const fd = openSync(join(root, 'append', 'fsync-every.jsonl'), 'a');
  const every: number[] = [];
  for (let i = 0; i < Math.min(count, 2000); i++) {
    const started = performance.now();
    writeSync(fd, `${JSON.stringify({ seq: i, t: new Date().toISOString(), ...entry(i) })}\n`);
    fsyncSync(fd);
    every.push(performance.now() - started);
  }
  closeSync(fd);
  every.sort((a, b) => a - b);
  console.log(`append (fsync on every record, for comparison), ${every.length} records: p50 ${fmt(percentile(every, 50))}, p99 ${fmt(percentile(every, 99))}`);
}

function loadTime(events: number): void {
  const path = join(root, 'load', 'events.jsonl');
  const writer = new ChatLogWriter(path);
  writer.append({ type: 'created', session: summary });
  for (let i = 1; i < events; i++) writer.append(entry(i), { durable: false });
  writer.close();
  const runs: number[] = [];
  let items = 0;
  for (let i = 0; i < 5; i++) {
    const started = performance.now();
    const read = readLog(path);
    const chat = replay(read.records)!;
    restoreChat(chat);
    runs.push(performance.now() - started);
    items = chat.transcript.length;
  }
  runs.sort((a, b) => a - b);
  console.log(`load a ${events.toLocaleString('en-US')}-event chat (${items} transcript items): median ${percentile(runs, 50).toFixed(1)} ms, best ${runs[0]!.toFixed(1)} ms`);
}

async function kills(count: number): Promise<void> {
  requireBuiltShell();
  const server = await startScriptedServer({ scenario: { ...plansStructured, latencyMs: 25 } });
  const dataDir = join(root, 'kills');
  const started = Date.now();
  let problems = 0;
  for (let i = 0; i < count; i++) {
    server.setScenario({ ...plansStructured, latencyMs: 25 });
    const shell = await launch(dataDir, root, server.url, 'sk-ant-bench-key');
    const { id } = (await shell.call('newSession', {})) as { id: string };
    await shell.call('sendMessage', { sessionId: id, text: 'Create a structural grid' });
    await new Promise((r) => setTimeout(r, Math.random() * 1000));
    await kill(shell);
  }
  const logs = checkLogs(dataDir);
  for (const log of logs) {
    if (log.problems.length) console.log(`  ${log.id}: ${log.problems.join('; ')}`);
    problems += log.problems.length;
  }
  const torn = logs.filter((l) => l.read.warnings.length > 0).length;
  console.log(`kills: ${count} in ${((Date.now() - started) / 1000).toFixed(1)} s; ${logs.length} logs load; ${torn} had a torn last line (dropped); ${problems} problems`);
  await server.close();
}

const killArg = process.argv.indexOf('--kills');
try {
  await appendLatency(20_000);
  loadTime(10_000);
  await kills(killArg > 0 ? Number(process.argv[killArg + 1]) : 100);
} finally {
  rmSync(root, { recursive: true, force: true });
}
