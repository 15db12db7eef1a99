import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { killAllLaunched, snapshotBuild } from '../test-support/main/kill-harness';
import { runKillLane, sumLanes } from '../test-support/kill-replay/kill-lane';
import { startScriptedServer, type ScriptedServer } from '../test-support/scripted-api/server';
import { ensureBuilt } from './lib/build';
import { metricsFor, type Benchmark } from './lib/metric';

const m = metricsFor('kill-replay');
const METHOD =
  'SIGKILL of the built web shell, the same chat in each lane killed again and again at a chosen point (stream, command, approval, escalation, any time), ' +
  'restarted, then answered/resumed/written to; every next request validated by the scripted server (real-API rules), and the history rebuilt from the log checked the same way (test-support/kill-replay)';

/**
 * The repeated-kill test at scale: 5 lanes × 205 kills (quick: 5 × 4). Each lane is one chat in
 * one data folder. Not a timing benchmark: the number that matters is invalid histories (0).
 */
export const killReplayBench: Benchmark = async ({ quick }) => {
  ensureBuilt();
  const lanes = 5;
  const perLane = quick ? 4 : 205;
  const build = snapshotBuild();
  const root = mkdtempSync(join(tmpdir(), 'waypoint-bench-kill-'));
  const servers: ScriptedServer[] = [];
  const started = Date.now();
  const seed = Date.now() % 100_000;
  try {
    const results = await Promise.all(
      Array.from({ length: lanes }, async (_, lane) => {
        const server = await startScriptedServer({ scenario: { name: 'placeholder', turns: [] } });
        servers.push(server);
        const workspace = join(root, `workspace-${lane}`);
        mkdirSync(workspace, { recursive: true });
        return runKillLane({ dataDir: join(root, `data-${lane}`), workspace, webJs: build.webJs, server, apiKey: 'waypoint-bench-key', kills: perLane, seed: seed + lane });
      }),
    );
    const total = sumLanes(results);
    const seconds = (Date.now() - started) / 1000;
    for (const problem of [...total.invalid, ...total.refusals, ...total.logProblems].slice(0, 20)) console.log(`[kill-replay] ${problem}`);
    return [
      m('kills', total.kills, '', `${METHOD}; seed ${seed}`),
      m('invalid histories', total.invalid.length, '', METHOD, { text: '0', met: total.invalid.length === 0 }),
      m('requests validated after a restart', total.requests, '', METHOD),
      m('refused calls / log problems', `${total.refusals.length} / ${total.logProblems.length}`, '', 'calls the app refused after a restart; log lines other than a torn tail', { text: '0 / 0', met: total.refusals.length + total.logProblems.length === 0 }),
      m('kills by point', Object.entries(total.hits).map(([k, v]) => `${k} ${v}`).join(', '), '', 'where each kill landed ("idle": the run ended first; "missed": the point did not come within 2 s)'),
      m('actions after restart', Object.entries(total.actions).map(([k, v]) => `${k} ${v}`).join(', '), '', 'what the lane did when the chat came back'),
      m('wall time per kill (5 lanes in parallel)', seconds / Math.max(1, total.kills), 's', 'start + act + wait for the point + SIGKILL'),
    ];
  } finally {
    killAllLaunched();
    for (const server of servers) await server.close();
    build.dispose();
    rmSync(root, { recursive: true, force: true });
  }
};
