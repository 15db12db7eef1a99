import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { plansStructured } from '../../../test-support/scenarios/plans-structured';
import { startScriptedServer, type ScriptedServer } from '../../../test-support/scripted-api/server';
import type { WaypointEvent } from '../../shared/contract';
import type { Plan } from '../../shared/plan';
import { planChangeItems } from '../../shared/plan-change';
import { checkLogs, kill, killAllLaunched, launch, snapshotBuild, type RunningShell } from '../../../test-support/main/kill-harness';

/**
 * SIGKILL the real web shell at random moments of a planned task, over and over on the same data
 * folder (each start loads every earlier, possibly torn, log), then check every log: it loads,
 * plan versions never go backwards, and the log lost at most the one event in flight.
 */
const LANES = 4;
const RUNS_PER_LANE = 13; // 52 kills in all
const KEY = 'sk-ant-test-kill-key';

const scenario = { ...plansStructured, latencyMs: 25 };
let root: string;
const servers: ScriptedServer[] = [];

let build: ReturnType<typeof snapshotBuild>;

beforeAll(async () => {
  build = snapshotBuild();
  root = await mkdtemp(join(tmpdir(), 'waypoint-kill-'));
});
afterAll(async () => {
  killAllLaunched();
  for (const server of servers) await server.close();
  await rm(root, { recursive: true, force: true });
  build.dispose();
});

interface RunResult {
  sessionId: string;
  maxPlanVersionSeen: number;
  itemsSeen: Map<string, unknown>;
}

async function oneRun(dataDir: string, server: ScriptedServer, killAfterMs: number): Promise<RunResult> {
  server.setScenario(scenario);
  const shell: RunningShell = await launch(dataDir, root, server.url, KEY, build.webJs);
  try {
    const { id } = (await shell.call('newSession', {})) as { id: string };
    await shell.call('sendMessage', { sessionId: id, text: 'Create a structural grid' });
    await new Promise((r) => setTimeout(r, killAfterMs));
    await kill(shell);
    const seen = shell.events.filter((e) => e.type === 'plan_updated' && e.sessionId === id) as Array<Extract<WaypointEvent, { type: 'plan_updated' }>>;
    const items = new Map<string, unknown>();
    let plan: Plan | null = null;
    for (const e of shell.events) {
      if (e.type === 'transcript_item' && e.sessionId === id) items.set(e.item.id, e);
      // A plan change's transcript line is derived from its event, as the renderer derives it.
      if (e.type === 'plan_updated' && e.sessionId === id) {
        for (const item of planChangeItems(plan, e)) items.set(item.id, item);
        plan = e.plan;
      }
    }
    return { sessionId: id, maxPlanVersionSeen: Math.max(0, ...seen.map((e) => e.plan.version)), itemsSeen: items };
  } finally {
    await kill(shell);
  }
}

describe('kill tests', () => {
  it(`${LANES * RUNS_PER_LANE} SIGKILLs at random points: every log loads, versions never go back, at most one event lost`, async () => {
    const started = Date.now();
    const lanes = Array.from({ length: LANES }, async (_, lane) => {
      const server = await startScriptedServer({ scenario });
      servers.push(server);
      const dataDir = join(root, `lane-${lane}`);
      const results: RunResult[] = [];
      for (let run = 0; run < RUNS_PER_LANE; run++) results.push(await oneRun(dataDir, server, Math.floor(Math.random() * 900)));
      return { dataDir, results };
    });
    const done = await Promise.all(lanes);
    let runs = 0;
    const failures: string[] = [];
    for (const { dataDir, results } of done) {
      const logs = new Map(checkLogs(dataDir).map((l) => [l.id, l]));
      for (const result of results) {
        runs++;
        const log = logs.get(result.sessionId);
        // newSession answers only after the chat's first record was written.
        if (!log) {
          failures.push(`${result.sessionId}: no log`);
          continue;
        }
        for (const problem of log.problems) failures.push(`${result.sessionId}: ${problem}`);
        const version = log.chat?.plan?.version ?? 0;
        // The log is written before an event reaches the client; the one in flight may be missing.
        if (version < result.maxPlanVersionSeen - 1) failures.push(`${result.sessionId}: plan v${version} logged, v${result.maxPlanVersionSeen} seen`);
        const loggedItems = new Set(log.chat?.transcript.map((i) => i.id) ?? []);
        const missing = [...result.itemsSeen.keys()].filter((id) => !loggedItems.has(id));
        if (missing.length > 1) failures.push(`${result.sessionId}: items seen but not logged: ${missing.join(', ')}`);
      }
    }
    expect(failures).toEqual([]);
    expect(runs).toBe(LANES * RUNS_PER_LANE);
    console.info(`[kill test] ${runs} kills in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  }, 300_000); // generous: it shares the machine with the repeated-kill test and other suites
});
