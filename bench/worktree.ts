import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gitRunner, makeChatWorktree, removeWorktree, worktreeChanges, worktreeFileDiff } from '../src/main/recovery/worktree';
import { CommandSnapshots } from '../src/main/recovery/command-snapshots';
import { SerialQueue } from '../src/main/recovery/checkpoint-blobs';
import { metricsFor, type Benchmark, type Metric } from './lib/metric';
import { startTestApp, type TestApp } from '../test-support/main/app-test-kit';
import type { Scenario } from '../test-support/scripted-api/scenario';
import type { WaypointEvent } from '../src/shared/contract';
import { median, wallNow } from './lib/stats';

/**
 * Issue 27: what a chat worktree costs. Real git on a repository of 50,000 files (quick: 2,000):
 * making the worktree (what it adds to a chat's first message) and "Changes" of a chat that
 * touched 2,000 files (quick: 200) — main's side of the call the region opens with; the region's
 * rendering of that many rows is not in this number.
 */
const m = metricsFor('worktree');
const ENV = { ...process.env, GIT_AUTHOR_NAME: 'B', GIT_AUTHOR_EMAIL: 'b@example.com', GIT_COMMITTER_NAME: 'B', GIT_COMMITTER_EMAIL: 'b@example.com' };
const sh = (cwd: string, ...args: string[]): void => void execFileSync('git', args, { cwd, env: ENV, stdio: 'ignore', maxBuffer: 1 << 30 });

/**
 * The repository is built with `git fast-import` (blobs and one commit, no files written), so
 * only what is measured writes the 50,000 files: the worktree's checkout.
 */
function bigRepo(dir: string, files: number): void {
  sh(dir, 'init', '--quiet', '--initial-branch=main');
  const parts: string[] = [];
  for (let i = 0; i < files; i++) {
    const body = `file ${i}\nline two\nline three\n`;
    parts.push(`M 100644 inline d${Math.floor(i / 500)}/f${i}.txt\ndata ${Buffer.byteLength(body)}\n${body}`);
  }
  const stream = `commit refs/heads/main\ncommitter B <b@example.com> 1700000000 +0000\ndata 10\nmany files\n${parts.join('\n')}\n\n`;
  execFileSync('git', ['fast-import', '--quiet'], { cwd: dir, env: ENV, input: stream, stdio: ['pipe', 'ignore', 'inherit'], maxBuffer: 1 << 30 });
  // The main checkout as a user has it (its index and files): status and worktree add read them.
  sh(dir, 'reset', '--quiet', '--hard', 'main');
}

/** Resolves at the first event from now on that matches, with when it came (wallNow). */
function eventAt(app: TestApp, match: (e: WaypointEvent) => boolean): Promise<number> {
  return new Promise((resolve) => {
    const sub = app.services.onEvent((e) => {
      if (!match(e)) return;
      sub.dispose();
      resolve(wallNow());
    });
  });
}

/** When the scripted server has received `count` requests (polled each tick: a millisecond at most late). */
async function requestAt(app: TestApp, count: number): Promise<number> {
  while (app.api.requests.length < count) await new Promise((r) => setImmediate(r));
  return wallNow();
}

/**
 * Send → first request at the scripted server, and Send → the first reply's tool call done, for
 * a plain chat and a worktree chat of the same repository, through the whole app (createServices,
 * the real SDK). The worktree chat sends at once after New chat, as `waypoint run --worktree`
 * does, so its checkout has had no head start: the difference is what the worktree adds.
 */
async function firstRequest(repoFiles: (ws: string) => void, runs: number): Promise<{ plain: number[]; worktree: number[]; plainTool: number[]; worktreeTool: number[] }> {
  const turn: Scenario['turns'] = [
    { kind: 'tool_use', calls: [{ name: 'read_file', input: { path: 'd0/f1.txt' } }] },
    { kind: 'text', text: 'Done.' },
  ];
  const scenario: Scenario = { name: 'worktree-first-request', description: 'Reads a file, then says done; once per chat.', onExhausted: 'echo', turns: Array.from({ length: runs * 2 + 1 }, () => turn).flat() };
  const app = await startTestApp(scenario, { settings: { worktrees: false, autoApproveEdits: true, autoApproveCommands: true } });
  const out = { plain: [] as number[], worktree: [] as number[], plainTool: [] as number[], worktreeTool: [] as number[] };
  try {
    repoFiles(app.workspace);
    const chatOnce = async (worktree: boolean): Promise<string> => {
      await app.call('setSettings', { patch: { worktrees: worktree } });
      const { id } = await app.call('newSession', {});
      const requests = app.api.requests.length;
      const toolDone = eventAt(app, (e) => e.type === 'transcript_item' && e.sessionId === id && e.item.kind === 'tool_call' && e.item.status === 'done');
      const idle = eventAt(app, (e) => e.type === 'run_state' && e.sessionId === id && e.state.status === 'idle');
      const t0 = wallNow();
      await app.call('sendMessage', { sessionId: id, text: 'Read the file' });
      const first = (await requestAt(app, requests + 1)) - t0;
      const tool = (await toolDone) - t0;
      await idle;
      (worktree ? out.worktree : out.plain).push(first);
      (worktree ? out.worktreeTool : out.plainTool).push(tool);
      console.error(`[bench] ${worktree ? 'worktree' : 'plain'} chat: first request ${Math.round(first)} ms, tool call done ${Math.round(tool)} ms after Send`);
      return id;
    };
    // A warm-up chat, not counted: the process's first request pays for loading the SDK's code.
    await chatOnce(false);
    out.plain.length = 0;
    out.plainTool.length = 0;
    for (let i = 0; i < runs; i++) {
      await chatOnce(false);
      const id = await chatOnce(true);
      await app.call('deleteSession', { sessionId: id });
      execFileSync('sync');
    }
  } finally {
    await app.close();
  }
  return out;
}

export const worktreeBench: Benchmark = async ({ quick }) => {
  const files = quick ? 2_000 : 50_000;
  const touched = quick ? 200 : 2_000;
  // WAYPOINT_BENCH_WORKTREE_RUNS: fewer runs on a loaded machine (each 50k-file worktree takes minutes to make and remove there).
  const runs = Number(process.env.WAYPOINT_BENCH_WORKTREE_RUNS) || (quick ? 2 : 5);
  const git = gitRunner();
  const root = mkdtempSync(join(tmpdir(), 'waypoint-bench-worktree-'));
  const metrics: Metric[] = [];
  try {
    const repo = join(root, 'repo');
    mkdirSync(repo);
    const built = wallNow();
    bigRepo(repo, files);
    const buildMs = wallNow() - built;
    const worktreesDir = join(root, 'data', 'worktrees');
    const making: number[] = [];
    for (let i = 0; i < runs; i++) {
      const chatId = `bench${String(i).padStart(3, '0')}-0000-4000-8000-000000000000`;
      const t0 = wallNow();
      const start = await makeChatWorktree(git, { workspace: repo, worktreesDir, chatId });
      making.push(wallNow() - t0);
      console.error(`[bench] worktree made in ${Math.round(making.at(-1)!)} ms`);
      if (start.kind !== 'made') throw new Error(start.note);
      await removeWorktree(git, repo, start.worktree.path, start.worktree.branch);
      // The removal's writes reach the disk before the next run is timed (not in any number).
      execFileSync('sync');
    }
    const makeMs = median(making);
    const each = making.map((ms) => Math.round(ms).toLocaleString('en-US')).join(', ');
    metrics.push(m(`worktree made, ${files.toLocaleString('en-US')} files`, makeMs, 'ms', `makeChatWorktree on a ${files}-file repository (median of ${runs}: ${each} ms; repository built in ${(buildMs / 1000).toFixed(1)} s). A new chat starts it when it is made (ChatWorktrees.makeAhead), and its first request goes out during it (what that adds is the next figure, which carries the issue's ≤ 2 s); the first tool call waits for the rest`));
    metrics.push(m(`first worktree made, ${files.toLocaleString('en-US')} files`, making[0]!, 'ms', `the first run alone: later runs write ${files.toLocaleString('en-US')} files again right after the last ones (see bench/README "Issue 27")`));

    // What the worktree adds to the first message now that its request goes out during the checkout.
    const sent = await firstRequest((ws) => bigRepo(ws, files), runs);
    const added = sent.worktree.map((ms, i) => ms - sent.plain[i]!);
    const addedMs = median(added);
    const list = (xs: number[]) => xs.map((ms) => Math.round(ms).toLocaleString('en-US')).join(', ');
    metrics.push(m(`Send → first request, worktree chat minus plain chat, ${files.toLocaleString('en-US')} files`, addedMs, 'ms', `whole app, real SDK, scripted server; the worktree chat sends right after New chat (as waypoint run --worktree), its checkout still running. Median of ${runs} differences (${list(added)} ms; worktree ${list(sent.worktree)}, plain ${list(sent.plain)} ms)`, { text: '≤ 2,000 ms', met: addedMs <= 2_000 }));
    metrics.push(m(`Send → first tool call done, worktree chat, ${files.toLocaleString('en-US')} files`, median(sent.worktreeTool), 'ms', `the first reply's read_file waits for the rest of the checkout (median of ${runs}: ${list(sent.worktreeTool)} ms; plain chat ${list(sent.plainTool)} ms)`));

    const start = await makeChatWorktree(git, { workspace: repo, worktreesDir, chatId: 'benchchg-0000-4000-8000-000000000000' });
    if (start.kind !== 'made') throw new Error(start.note);
    const wt = start.worktree;
    for (let i = 0; i < touched; i++) {
      const file = join(wt.path, `d${Math.floor(i / 500)}`, `f${i}.txt`);
      if (i % 10 === 0) rmSync(file);
      else writeFileSync(file, `file ${i}\nchanged by the chat\nline three\nand a line more\n`);
    }
    const listing: number[] = [];
    let count = 0;
    for (let i = 0; i < runs; i++) {
      const t0 = wallNow();
      count = (await worktreeChanges(git, wt)).length;
      listing.push(wallNow() - t0);
      console.error(`[bench] Changes listed in ${Math.round(listing.at(-1)!)} ms`);
    }
    if (count !== touched) throw new Error(`Changes listed ${count} files, not ${touched}`);
    const listMs = median(listing);
    metrics.push(m(`Changes of ${touched.toLocaleString('en-US')} files`, listMs, 'ms', `getChanges' work in main (scratch index, one git diff --raw --numstat) in a ${files}-file worktree, median of ${runs}`, { text: '≤ 300 ms', met: listMs <= 300 }));
    const t0 = wallNow();
    await worktreeFileDiff(git, wt, 'd0/f1.txt');
    metrics.push(m('Show diff of one file', wallNow() - t0, 'ms', `getFileDiff in the same worktree (one run)`));

    // A plain folder of as many files (the repository's checkout, seen as a folder): what the
    // snapshots before and after a command add to it. The first snapshot hashes every file, once per chat.
    const snapshots = new CommandSnapshots({ dataDir: join(root, 'data'), queue: new SerialQueue(), capturedByFileTools: async () => false });
    const f0 = wallNow();
    let tree = await snapshots.before('bench-chat', repo);
    const firstMs = wallNow() - f0;
    const around: number[] = [];
    for (let i = 0; i < runs; i++) {
      const a0 = wallNow();
      tree = await snapshots.before('bench-chat', repo);
      const beforeMs = wallNow() - a0;
      for (let j = 0; j < 10; j++) writeFileSync(join(repo, 'd1', `f${500 + j}.txt`), `run ${i}\n`);
      const a1 = wallNow();
      await snapshots.after('bench-chat', repo, tree!);
      around.push(beforeMs + wallNow() - a1);
    }
    metrics.push(m(`command snapshots, ${files.toLocaleString('en-US')}-file folder`, median(around), 'ms', `what run_command adds in a plain folder: the snapshot before and after a command that changed 10 files (median of ${runs}; the chat's first snapshot of the folder took ${Math.round(firstMs)} ms)`));
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
  return metrics;
};
