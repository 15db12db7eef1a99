import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { cliEnv, killAllCli, requireBuiltCli, runCli, startCli } from '../../../../test-support/main/cli-harness';
import { HELD_FULL_TEXT, git, heldCheckoutRepo, readsTheHeldTree } from '../../../../test-support/main/held-checkout';
import { useCliTestWorld } from '../../../../test-support/main/cli-test-world';
import { BY_COMMAND, WORKTREE_NOTES, WORKTREE_NOTES_TEXT, WORKTREE_NOTES_WRITTEN, worktreeChat } from '../../../../test-support/scenarios/worktree';

/**
 * `waypoint run --worktree` (docs/contract.md §11, §7): the built CLI in a child process, real git in
 * a temporary repository. The run works in a worktree of its own, prints its branch (and --json
 * carries it), and leaves the worktree and branch for review.
 */
const world = useCliTestWorld('waypoint-cli-worktree-', worktreeChat);
beforeAll(() => requireBuiltCli());
afterEach(() => killAllCli());

function repoIn(folder: string): void {
  writeFileSync(join(folder, WORKTREE_NOTES), WORKTREE_NOTES_TEXT);
  git(folder, 'init', '--quiet', '--initial-branch=main');
  git(folder, 'add', '.');
  git(folder, 'commit', '--quiet', '-m', 'first');
}

describe('waypoint run --worktree', { timeout: 90_000 }, () => {
  it('--json: the run works in its own worktree, run_finished carries the branch, and the worktree is left for review', async () => {
    world.api.setScenario(worktreeChat);
    repoIn(world.workspace);
    const result = await runCli(['run', 'Write the notes', '--workspace', world.workspace, '--data-dir', world.dataDir, '--auto-approve', '--json', '--worktree'], cliEnv(world.api.url));
    expect(result.code).toBe(0);
    const finished = JSON.parse(result.stdout.trimEnd().split('\n').at(-1)!) as { type: string; sessionId: string; worktree: { branch: string; path: string; repository: string; baseBranch: string } };
    expect(finished).toMatchObject({ type: 'run_finished', worktree: { branch: `waypoint/${finished.sessionId.replaceAll('-', '').slice(0, 8)}`, path: join(world.dataDir, 'worktrees', finished.sessionId), baseBranch: 'main' } });
    const { branch, path } = finished.worktree;
    // The user's checkout is as it was; the work is in the worktree, which is still there on its branch.
    expect(readFileSync(join(world.workspace, WORKTREE_NOTES), 'utf8')).toBe(WORKTREE_NOTES_TEXT);
    expect(existsSync(join(world.workspace, BY_COMMAND))).toBe(false);
    expect(readFileSync(join(path, WORKTREE_NOTES), 'utf8')).toBe(WORKTREE_NOTES_WRITTEN);
    expect(existsSync(join(path, BY_COMMAND))).toBe(true);
    expect(git(world.workspace, 'branch', '--list', '--format=%(refname:short)', 'waypoint/*').trim()).toBe(branch);
    expect(git(world.workspace, 'worktree', 'list').trim().split('\n')).toHaveLength(2);
  });

  it('plain lines name the branch and where the work waits', async () => {
    world.api.setScenario(worktreeChat);
    repoIn(world.workspace);
    const result = await runCli(['run', 'Write the notes', '--workspace', world.workspace, '--data-dir', world.dataDir, '--auto-approve', '--worktree'], cliEnv(world.api.url));
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/This chat works in its own git worktree on branch waypoint\/[0-9a-f]{8}/);
    expect(result.stdout).toMatch(/The work is on branch waypoint\/[0-9a-f]{8} \(worktree .*\), left for review: Merge into main or discard it in the Waypoint app's Changes\./);
  });

  it('sends its first request while the checkout still runs; its tool call waits for the whole tree, and the worktree is reported once whole', async () => {
    world.api.setScenario(readsTheHeldTree);
    const held = heldCheckoutRepo(world.workspace, join(world.dataDir, '..'));
    const from = world.api.requests.length; // the server is the file's: earlier tests' requests are in it
    const run = startCli(['run', 'Read the file', '--workspace', world.workspace, '--data-dir', world.dataDir, '--auto-approve', '--json', '--worktree'], cliEnv(world.api.url));
    // The first request reached Claude before the checkout could end (only the release below ends
    // it); the hook may start before or after that request, then holds the tree half-written.
    await vi.waitFor(() => expect(world.api.requests.length).toBeGreaterThan(from), { timeout: 60_000, interval: 50 });
    await vi.waitFor(() => expect(existsSync(held.marker)).toBe(true), { timeout: 30_000, interval: 20 });
    const system = JSON.stringify((world.api.requests[from]!.body as { system: unknown }).system);
    expect(system).toContain('Style from the commit.');
    expect(system).not.toContain('HALF-WRITTEN');
    await held.release('go');
    const result = await run.done;
    expect(result.code).toBe(0);
    const second = JSON.stringify(world.api.requests[from + 1]!.body);
    expect(second).toContain(HELD_FULL_TEXT);
    const finished = JSON.parse(result.stdout.trimEnd().split('\n').at(-1)!) as { worktree: { path: string } };
    expect(readFileSync(join(finished.worktree.path, 'AGENTS.md'), 'utf8')).toBe(readFileSync(join(world.workspace, 'AGENTS.md'), 'utf8'));
    expect(git(finished.worktree.path, 'status', '--porcelain')).toBe('');
  });

  it('without --worktree (and the setting off) the run works in the folder itself', async () => {
    world.api.setScenario(worktreeChat);
    repoIn(world.workspace);
    const result = await runCli(['run', 'Write the notes', '--workspace', world.workspace, '--data-dir', world.dataDir, '--auto-approve', '--json'], cliEnv(world.api.url));
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout.trimEnd().split('\n').at(-1)!)).not.toHaveProperty('worktree');
    expect(readFileSync(join(world.workspace, WORKTREE_NOTES), 'utf8')).toBe(WORKTREE_NOTES_WRITTEN);
  });
});
