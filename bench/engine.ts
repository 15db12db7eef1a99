import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findDependencyCycle, type DependencyNode } from '../src/main/plan/engine/cycle';
import { PlanService } from '../src/main/plan/plan-service';
import type { Dialect } from '../src/shared/plan';
import { defaultSettings } from '../src/shared/settings';
import type { ToolContext } from '../src/main/tools/tool';
import { ROUNDS, type Call } from './engine-drivers';
import { exposeGc } from './lib/heap';
import { metricsFor, type Benchmark, type Metric } from './lib/metric';
import { callTool } from '../src/main/tools/define-tool';
import { median, percentile } from './lib/stats';

const DIALECTS: Dialect[] = ['structured', 'checklist', 'wbs', 'session'];
const BATCH = 10; // calls between heap readings: small, so a scavenge rarely lands inside one

/** Engine throughput: planning tool calls through `PlanService.toolsFor(dialect)[…].execute`. */
export const engineBench: Benchmark = async ({ quick }) => {
  const m = metricsFor('engine');
  const sizes = quick ? [10, 100] : [10, 100, 1000];
  const samplesWanted = quick ? 30 : 3000;
  const gc = exposeGc();
  const dataDir = mkdtempSync(join(tmpdir(), 'waypoint-bench-engine-'));
  const metrics: Metric[] = [];
  const service = new PlanService({ dataDir });
  try {
    for (const dialect of DIALECTS) {
      for (const size of sizes) {
        let measured: Awaited<ReturnType<typeof measure>>;
        try {
          if (!quick) await measure(service, dialect, size, Math.min(300, samplesWanted), null); // JIT warm-up, discarded
          measured = await measure(service, dialect, size, samplesWanted, gc);
        } catch (error) {
          // e.g. the engine's MAX_STEPS (100) refuses a 1,000-step plan: say so in the table.
          metrics.push(m(`${dialect} @${size} steps`, `n/a: ${error instanceof Error ? error.message : String(error)}`, '', 'the engine refused to build a plan of this size'));
          continue;
        }
        const { times, bytes } = measured;
        const p50 = median(times);
        const p99 = percentile(times, 99);
        const stepsNote = dialect === 'checklist' && size > 12 ? ' (checklist caps plans at 12 steps)' : '';
        const method = `${times.length} mixed calls (${describeMix(dialect)}) on a ${size}-step plan${stepsNote}; process.hrtime around await execute()`;
        const target = size === 100 ? { text: '< 50 µs', met: p50 < 50 } : undefined;
        metrics.push(m(`${dialect} @${size} steps, µs/call p50`, p50, 'µs', method, target));
        metrics.push(m(`${dialect} @${size} steps, µs/call p99`, p99, 'µs', method));
        if (bytes.length) {
          metrics.push(m(`${dialect} @${size} steps, heap/call`, median(bytes) / 1024, 'KB', `median over batches of ${BATCH} calls of heapUsed growth after a forced gc (a lower bound: a scavenge inside a batch hides some)`));
        }
      }
    }
    metrics.push(...cycleMetrics(quick));
  } finally {
    service.dispose();
    rmSync(dataDir, { recursive: true, force: true });
  }
  return metrics;
};

function describeMix(dialect: Dialect): string {
  return {
    structured: 'update_plan start_step / note / complete_step',
    checklist: 'update_plan with the whole list, one step further each call',
    wbs: 'planning_add_step, planning_status, planning_list, planning_finalize; WBS.md rewritten each call',
    session: 'planning_update_step in_progress / planning_read_plan / planning_update_step done',
  }[dialect];
}

async function measure(service: PlanService, dialect: Dialect, size: number, wanted: number, gc: (() => void) | null) {
  const tools = new Map(service.toolsFor(dialect).map((t) => [t.name, t]));
  const times: number[] = [];
  const bytes: number[] = [];
  let round = 0;
  while (times.length < wanted) {
    const ctx: ToolContext = { sessionId: `bench-${dialect}-${size}-${round++}`, signal: new AbortController().signal, settings: defaultSettings() };
    let wbsSession = '';
    const run = async (call: Call) => {
      const tool = tools.get(call.name);
      if (!tool) throw new Error(`${dialect} has no tool ${call.name}`);
      const input = JSON.parse(JSON.stringify(call.input).replaceAll('{{session}}', wbsSession)) as unknown;
      const started = process.hrtime.bigint();
      const outcome = await callTool(tool, input, ctx);
      const elapsed = Number(process.hrtime.bigint() - started) / 1000;
      if (!outcome.ok) throw new Error(`${dialect} ${call.name} failed at size ${size}: ${outcome.error.message}`);
      if (call.name === 'planning_initialize') wbsSession = (JSON.parse(outcome.content) as { sessionId: string }).sessionId;
      return elapsed;
    };
    const { setup, measured } = ROUNDS[dialect](size);
    for (const call of setup) await run(call);
    for (let i = 0; i < measured.length && times.length < wanted; i += BATCH) {
      gc?.();
      const before = process.memoryUsage().heapUsed;
      for (const call of measured.slice(i, i + BATCH)) times.push(await run(call));
      const grown = process.memoryUsage().heapUsed - before;
      if (gc) bytes.push(Math.max(0, grown) / Math.min(BATCH, measured.length - i));
    }
    service.drop(ctx.sessionId);
  }
  return { times, bytes };
}

/** A DAG of `nodes` steps with `edges` dependencies on earlier steps; optionally one back edge. */
export function dependencyGraph(nodes: number, edges: number, withCycle: boolean): DependencyNode[] {
  const perNode = Math.max(1, Math.round(edges / nodes));
  const graph = Array.from({ length: nodes }, (_, i) => ({
    id: i + 1,
    dependsOn: Array.from({ length: Math.min(i, perNode) }, (_, k) => 1 + ((i * 7919 + k * 104729) % i)),
  }));
  if (withCycle) graph[0]!.dependsOn = [nodes];
  return graph;
}

function cycleMetrics(quick: boolean): Metric[] {
  const m = metricsFor('engine');
  const edges = quick ? 1000 : 10_000;
  const runs = quick ? 5 : 50;
  const out: Metric[] = [];
  for (const withCycle of [false, true]) {
    const graph = dependencyGraph(Math.ceil((edges + 6) / 4), edges, withCycle); // 4 deps a step; the first 3 steps have fewer
    const edgeCount = graph.reduce((n, s) => n + s.dependsOn.length, 0);
    const times: number[] = [];
    for (let i = 0; i < runs; i++) {
      const started = process.hrtime.bigint();
      const cycle = findDependencyCycle(graph);
      times.push(Number(process.hrtime.bigint() - started) / 1e6);
      if ((cycle !== null) !== withCycle) throw new Error(`cycle check gave ${JSON.stringify(cycle)} on a graph ${withCycle ? 'with' : 'without'} a cycle`);
    }
    out.push(m(`cycle check, ${edgeCount} edges ${withCycle ? 'with a cycle' : 'acyclic'}`, median(times), 'ms', `findDependencyCycle (engine/cycle.ts) on ${graph.length} steps, median of ${runs}`));
  }
  return out;
}
