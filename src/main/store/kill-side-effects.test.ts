import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startScriptedServer, type ScriptedServer } from '../../../test-support/scripted-api/server';
import type { Scenario } from '../../../test-support/scripted-api/scenario';
import { kill, killAllLaunched, launch, snapshotBuild } from '../../../test-support/main/kill-harness';
import type { WaypointEvent } from '../../shared/contract';
import type { TranscriptItem } from '../../shared/transcript';

/**
 * Issue 27's kill test: SIGKILL the real web shell at random points of a run_command (commands
 * auto-approved), start it again and let Claude make the same call: a call the kill cut off is
 * never run again without the user's approval. The command notes each start in starts.log.
 */
const RUNS = 8;
const KEY = 'sk-ant-test-kill-effects';
const COMMAND = 'echo start >> starts.log; sleep 1; echo end >> ends.log';
const scenario: Scenario = {
  name: 'kill-side-effects',
  description: 'A slow command, then the same command again, then a reply.',
  onExhausted: 'echo',
  latencyMs: 10,
  turns: [
    { kind: 'tool_use', calls: [{ name: 'run_command', input: { command: COMMAND } }] },
    { kind: 'tool_use', calls: [{ name: 'run_command', input: { command: COMMAND } }] },
    { kind: 'text', text: 'Done.' },
  ],
};

let root: string;
let build: ReturnType<typeof snapshotBuild>;
const servers: ScriptedServer[] = [];
beforeAll(async () => {
  build = snapshotBuild();
  root = await mkdtemp(join(tmpdir(), 'waypoint-kill-effects-'));
});
afterAll(async () => {
  killAllLaunched();
  for (const server of servers) await server.close();
  await rm(root, { recursive: true, force: true });
  build.dispose();
});

const lines = (file: string): number => (existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean).length : 0);

async function until(events: WaypointEvent[], match: (e: WaypointEvent) => boolean, ms: number): Promise<WaypointEvent | null> {
  for (const deadline = Date.now() + ms; Date.now() < deadline; await new Promise((r) => setTimeout(r, 20))) {
    const found = events.find(match);
    if (found) return found;
  }
  return null;
}

/** One kill; what it found: whether the kill cut a call off, and a re-run without approval if any. */
async function oneRun(run: number): Promise<{ cutOff: boolean; asked: boolean; problem: string | null }> {
  const server = await startScriptedServer({ scenario });
  servers.push(server);
  const dataDir = join(root, `data-${run}`);
  const workspace = join(root, `ws-${run}`);
  await mkdir(dataDir, { recursive: true });
  await mkdir(workspace, { recursive: true });
  writeFileSync(join(dataDir, 'settings.json'), JSON.stringify({ autoApproveCommands: true, retryDelayMs: 0 }));
  const first = await launch(dataDir, workspace, server.url, KEY, build.webJs);
  const { id } = (await first.call('newSession', {})) as { id: string };
  await first.call('sendMessage', { sessionId: id, text: 'Run the slow command' });
  // Every other run at random from the message on (before, during or after the command, however
  // loaded the machine); the others at random within the command's second once its card runs.
  if (run % 2 === 0) {
    await new Promise((r) => setTimeout(r, Math.floor(Math.random() * 1_500)));
  } else {
    await until(first.events, (e) => e.type === 'transcript_item' && e.item.kind === 'tool_call' && e.item.status === 'running', 30_000);
    await new Promise((r) => setTimeout(r, Math.floor(Math.random() * 800)));
  }
  await kill(first);
  // A command the kill orphaned still finishes: let it, so starts.log counts only new runs after this.
  await new Promise((r) => setTimeout(r, 1_200));
  const startsBefore = lines(join(workspace, 'starts.log'));

  const second = await launch(dataDir, workspace, server.url, KEY, build.webJs);
  try {
    const session = (await second.call('getSession', { sessionId: id })) as { transcript: TranscriptItem[] };
    const cutOff = session.transcript.some((i) => i.kind === 'tool_call' && i.interrupted === true);
    await second.call('sendMessage', { sessionId: id, text: 'Go on' });
    const settled = await until(second.events, (e) => (e.type === 'approval_requested' && e.sessionId === id) || (e.type === 'run_state' && e.sessionId === id && e.state.status === 'idle'), 30_000);
    if (!settled) return { cutOff, asked: false, problem: `run ${run}: the resumed chat neither asked nor ended` };
    const asked = settled.type === 'approval_requested';
    const startsAfter = lines(join(workspace, 'starts.log'));
    // A kill in the second command leaves the script's reply ("Done.") next: Claude makes no call
    // again then, and nothing may have started; a kill in the first is followed by the same call,
    // which must ask.
    if (cutOff && !asked && startsAfter !== startsBefore) return { cutOff, asked, problem: `run ${run}: the call cut off ran again unasked (${startsBefore} → ${startsAfter} starts)` };
    if (cutOff && startsAfter !== startsBefore) return { cutOff, asked, problem: `run ${run}: the command started again while approval was asked` };
    return { cutOff, asked, problem: null };
  } finally {
    await kill(second);
  }
}

describe('kill during run_command', () => {
  it(`${RUNS} SIGKILLs at random points: a call cut off is never run again without approval`, async () => {
    const results: { cutOff: boolean; asked: boolean; problem: string | null }[] = [];
    for (let run = 0; run < RUNS; run++) results.push(await oneRun(run));
    expect(results.flatMap((r) => (r.problem ? [r.problem] : []))).toEqual([]);
    console.info(`[kill side effects] ${RUNS} kills, ${results.filter((r) => r.cutOff).length} cut a command off`);
    // Half the kills land mid-command; a test in which none cut a command off and then saw the
    // same call made again (and asked about) would prove nothing.
    expect(results.some((r) => r.cutOff && r.asked)).toBe(true);
  }, 300_000);
});
