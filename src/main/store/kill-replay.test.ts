import { mkdtemp, rm } from 'node:fs/promises';
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runKillLane, sumLanes } from '../../../test-support/kill-replay/kill-lane';
import { startScriptedServer, type ScriptedServer } from '../../../test-support/scripted-api/server';
import { killAllLaunched, snapshotBuild } from '../../../test-support/main/kill-harness';

/**
 * The same chat killed again and again (SIGKILL of the real web shell) at the worst moments —
 * mid-stream, mid-command, with an approval or an escalation waiting — and restarted: after
 * every restart the next request must be a valid Messages API history (the scripted server
 * refuses anything the real API would), and so must the history rebuilt from the log alone.
 * bench/kill-replay.ts runs the same lanes for 1,000+ kills. WAYPOINT_KILL_KEEP=1 keeps the data folders,
 * with each lane's refused requests (refused.json) and every shell's output (shells.log).
 */
const LANES = 7;
const KILLS_PER_LANE = Number(process.env.WAYPOINT_KILLS_PER_LANE ?? 30); // 210 kills in all
const KEY = 'waypoint-kill-replay-test-key';

let root: string;
let build: ReturnType<typeof snapshotBuild>;
const servers: ScriptedServer[] = [];

beforeAll(async () => {
  build = snapshotBuild();
  root = await mkdtemp(join(tmpdir(), 'waypoint-kill-replay-'));
});
afterAll(async () => {
  killAllLaunched();
  for (const server of servers) await server.close();
  if (process.env.WAYPOINT_KILL_KEEP) console.info(`[kill-replay] kept ${root}`);
  else await rm(root, { recursive: true, force: true });
  build.dispose();
});

describe('repeated kills of one chat', () => {
  it(`${LANES * KILLS_PER_LANE} SIGKILLs at random points of the same chats: 0 invalid histories, every log loads`, async () => {
    const started = Date.now();
    const seed = Number(process.env.WAYPOINT_KILL_SEED ?? Date.now() % 100_000);
    const lanes = await Promise.all(
      Array.from({ length: LANES }, async (_, lane) => {
        const server = await startScriptedServer({ scenario: { name: 'placeholder', turns: [] } });
        servers.push(server);
        const workspace = join(root, `workspace-${lane}`);
        mkdirSync(workspace, { recursive: true });
        return runKillLane({ dataDir: join(root, `data-${lane}`), workspace, webJs: build.webJs, server, apiKey: KEY, kills: KILLS_PER_LANE, seed: seed + lane });
      }),
    );
    const total = sumLanes(lanes);
    console.info(
      `[kill-replay] seed ${seed}: ${total.kills} kills in ${((Date.now() - started) / 1000).toFixed(1)} s; hits ${JSON.stringify(total.hits)}; ` +
        `actions ${JSON.stringify(total.actions)}; ${total.requests} requests validated; ${total.invalid.length} invalid`,
    );
    expect(total.invalid).toEqual([]);
    expect(total.refusals).toEqual([]);
    expect(total.logProblems).toEqual([]);
    expect(total.kills).toBe(LANES * KILLS_PER_LANE);
    // The kills really reached the states that matter.
    for (const point of ['streaming', 'tool_running', 'approval_pending', 'escalation_pending'] as const) expect(total.hits[point], point).toBeGreaterThan(0);
    // And the chats kept working between kills. Not one request per kill: a command a kill cut off
    // asks for approval before it runs again (docs/architecture.md "Interrupted side effects"), so
    // some starts end at that question, with no request, until the next start answers it.
    expect(total.requests).toBeGreaterThan(total.kills / 2);
  }, 400_000);
});
