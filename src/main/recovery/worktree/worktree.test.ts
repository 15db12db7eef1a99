import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { gitRunner } from './git';
import { makeChatWorktree } from './worktree-create';
import { revertWorktreeFile, worktreeChanges, worktreeFileDiff } from './worktree-changes';
import { mergeWorktree } from './worktree-merge';
import { forgetChatWorktree, sweepOrphanWorktrees, worktreeUsage } from './worktree-folders';
import type { ChatWorktree } from '../../../shared/worktree';

const git = gitRunner();
const ENV = { ...process.env, GIT_AUTHOR_NAME: 'T', GIT_AUTHOR_EMAIL: 't@example.com', GIT_COMMITTER_NAME: 'T', GIT_COMMITTER_EMAIL: 't@example.com' };
const sh = (cwd: string, ...args: string[]): string => execFileSync('git', args, { cwd, env: ENV, encoding: 'utf8' });
const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'wp-wt-')));
  made.push(dir);
  return dir;
}

/** A repository on branch main with one commit: a.txt, b.txt. */
function repo(): string {
  const dir = tempDir();
  sh(dir, 'init', '--quiet', '--initial-branch=main');
  sh(dir, 'config', 'user.name', 'T');
  sh(dir, 'config', 'user.email', 't@example.com');
  fs.writeFileSync(path.join(dir, 'a.txt'), 'one\ntwo\nthree\n');
  fs.writeFileSync(path.join(dir, 'b.txt'), 'bee\n');
  sh(dir, 'add', '.');
  sh(dir, 'commit', '--quiet', '-m', 'first');
  return dir;
}

const CHAT = '0123abcd-0000-4000-8000-000000000000';

async function made1(workspace: string, dataDir = tempDir()): Promise<{ wt: ChatWorktree; workspace: string; note?: string; worktreesDir: string }> {
  const worktreesDir = path.join(dataDir, 'worktrees');
  const start = await makeChatWorktree(git, { workspace, worktreesDir, chatId: CHAT });
  if (start.kind !== 'made') throw new Error(`not made: ${start.note}`);
  return { wt: start.worktree, workspace: start.workspace, note: start.note, worktreesDir };
}

describe('a chat worktree', () => {
  it('is made under the data folder on waypoint/<short id> from the checked-out branch', async () => {
    const r = repo();
    const { wt, workspace, note, worktreesDir } = await made1(r);
    expect(wt).toMatchObject({ branch: 'waypoint/0123abcd', repo: r, baseBranch: 'main', path: path.join(worktreesDir, CHAT) });
    expect(workspace).toBe(wt.path);
    expect(fs.readFileSync(path.join(wt.path, 'a.txt'), 'utf8')).toBe('one\ntwo\nthree\n');
    expect(sh(r, 'branch', '--list', '--format=%(refname:short)', 'waypoint/*').trim()).toBe('waypoint/0123abcd');
    expect(note).toContain('waypoint/0123abcd');
  });

  it('keeps a subfolder workspace as the same subfolder of the worktree', async () => {
    const r = repo();
    fs.mkdirSync(path.join(r, 'sub'));
    fs.writeFileSync(path.join(r, 'sub', 'c.txt'), 'c\n');
    sh(r, 'add', '.');
    sh(r, 'commit', '--quiet', '-m', 'sub');
    const { wt, workspace } = await made1(path.join(r, 'sub'));
    expect(workspace).toBe(path.join(wt.path, 'sub'));
  });

  it('is not made outside a git repository: the chat works in the folder and says why', async () => {
    const plain = tempDir();
    const start = await makeChatWorktree(git, { workspace: plain, worktreesDir: path.join(tempDir(), 'worktrees'), chatId: CHAT });
    expect(start).toEqual({ kind: 'plain', note: expect.stringContaining('is not inside a git repository') });
  });

  it('in a repository with no commit yet the chat works in the folder, says why, and nothing is made', async () => {
    const r = tempDir();
    sh(r, 'init', '--quiet', '--initial-branch=main');
    const worktreesDir = path.join(tempDir(), 'worktrees');
    const start = await makeChatWorktree(git, { workspace: r, worktreesDir, chatId: CHAT });
    expect(start).toEqual({ kind: 'plain', note: expect.stringContaining('has no commit yet, so there is nothing to make a worktree from') });
    expect(fs.existsSync(worktreesDir)).toBe(false);
    expect(sh(r, 'branch', '--list')).toBe('');
  });

  it('without git the chat works in the folder and says git is missing', async () => {
    const start = await makeChatWorktree(gitRunner('/nonexistent/git'), { workspace: repo(), worktreesDir: path.join(tempDir(), 'worktrees'), chatId: CHAT });
    expect(start).toEqual({ kind: 'plain', note: expect.stringContaining('git was not found') });
  });

  it('from a dirty checkout starts at HEAD and says the uncommitted changes stay behind', async () => {
    const r = repo();
    fs.writeFileSync(path.join(r, 'a.txt'), 'changed\n');
    const { wt, note } = await made1(r);
    expect(note).toMatch(/1 uncommitted change: the worktree starts from the last commit/);
    expect(fs.readFileSync(path.join(wt.path, 'a.txt'), 'utf8')).toBe('one\ntwo\nthree\n');
  });

  it('from a detached HEAD has no branch to merge into and says so', async () => {
    const r = repo();
    sh(r, 'checkout', '--quiet', '--detach');
    const { wt, note } = await made1(r);
    expect(wt.baseBranch).toBeNull();
    expect(note).toContain('detached');
    await expect(mergeWorktree(git, wt, 't')).rejects.toThrow(/no branch to merge it into/);
  });

  it('is refused when its branch name is taken, and nothing is made', async () => {
    const r = repo();
    sh(r, 'branch', 'waypoint/0123abcd');
    const worktreesDir = path.join(tempDir(), 'worktrees');
    await expect(makeChatWorktree(git, { workspace: r, worktreesDir, chatId: CHAT })).rejects.toThrow(/branch waypoint\/0123abcd already exists/);
    expect(fs.existsSync(path.join(worktreesDir, CHAT))).toBe(false);
    expect(sh(r, 'worktree', 'list').trim().split('\n')).toHaveLength(1);
  });

  it('is never made inside the repository (a data folder inside it is refused)', async () => {
    const r = repo();
    await expect(makeChatWorktree(git, { workspace: r, worktreesDir: path.join(r, 'data', 'worktrees'), chatId: CHAT })).rejects.toThrow(/never made inside your repository/);
    expect(fs.existsSync(path.join(r, 'data'))).toBe(false);
  });
});

describe('Changes of a worktree chat', () => {
  it('lists files written, created, deleted and committed, with lines added and removed', async () => {
    const r = repo();
    const { wt } = await made1(r);
    fs.writeFileSync(path.join(wt.path, 'a.txt'), 'one\nTWO\nthree\nfour\n');
    fs.rmSync(path.join(wt.path, 'b.txt'));
    fs.writeFileSync(path.join(wt.path, 'new.txt'), 'x\ny\n');
    fs.writeFileSync(path.join(wt.path, 'committed.txt'), 'c\n');
    sh(wt.path, 'add', 'committed.txt');
    sh(wt.path, 'commit', '--quiet', '-m', 'by a command');
    expect(await worktreeChanges(git, wt)).toEqual([
      { path: 'a.txt', status: 'modified', added: 2, removed: 1 },
      { path: 'b.txt', status: 'deleted', added: 0, removed: 1 },
      { path: 'committed.txt', status: 'added', added: 1, removed: 0 },
      { path: 'new.txt', status: 'added', added: 2, removed: 0 },
    ]);
    // Looking changed nothing: the worktree's own index still lacks the new file.
    expect(sh(wt.path, 'status', '--porcelain')).toContain('?? new.txt');
    const diff = await worktreeFileDiff(git, wt, 'a.txt');
    expect(diff).toContain('-two');
    expect(diff).toContain('+TWO');
  });

  it('Revert file puts a changed file back and removes a created one', async () => {
    const { wt } = await made1(repo());
    fs.writeFileSync(path.join(wt.path, 'a.txt'), 'changed\n');
    fs.writeFileSync(path.join(wt.path, 'new.txt'), 'x\n');
    await revertWorktreeFile(git, wt, 'a.txt');
    await revertWorktreeFile(git, wt, 'new.txt');
    expect(fs.readFileSync(path.join(wt.path, 'a.txt'), 'utf8')).toBe('one\ntwo\nthree\n');
    expect(fs.existsSync(path.join(wt.path, 'new.txt'))).toBe(false);
    expect(await worktreeChanges(git, wt)).toEqual([]);
  });

  it('refuses a path outside the worktree', async () => {
    const { wt } = await made1(repo());
    await expect(revertWorktreeFile(git, wt, '../x')).rejects.toThrow(/is not a file of this chat's changes/);
    await expect(worktreeFileDiff(git, wt, '/etc/passwd')).rejects.toThrow(/is not a file of this chat's changes/);
  });

  it('says the worktree folder was deleted by hand', async () => {
    const { wt } = await made1(repo());
    fs.rmSync(wt.path, { recursive: true, force: true });
    await expect(worktreeChanges(git, wt)).rejects.toThrow(/was deleted outside Waypoint/);
  });
});

describe('Merge into BRANCH', () => {
  it('merges the chat work, committed or not, into the branch it came from', async () => {
    const r = repo();
    const { wt } = await made1(r);
    fs.writeFileSync(path.join(wt.path, 'new.txt'), 'x\n');
    await mergeWorktree(git, wt, 'A chat');
    expect(fs.readFileSync(path.join(r, 'new.txt'), 'utf8')).toBe('x\n');
    expect(sh(r, 'status', '--porcelain')).toBe('');
  });

  it('makes a merge commit when the branch moved on without conflict', async () => {
    const r = repo();
    const { wt } = await made1(r);
    fs.writeFileSync(path.join(r, 'b.txt'), 'bee moved\n');
    sh(r, 'commit', '--quiet', '-am', 'main moved');
    fs.writeFileSync(path.join(wt.path, 'a.txt'), 'one\ntwo\nthree\nfour\n');
    await mergeWorktree(git, wt, 'A chat');
    expect(fs.readFileSync(path.join(r, 'a.txt'), 'utf8')).toBe('one\ntwo\nthree\nfour\n');
    expect(fs.readFileSync(path.join(r, 'b.txt'), 'utf8')).toBe('bee moved\n');
    expect(sh(r, 'log', '-1', '--format=%P').trim().split(' ')).toHaveLength(2);
  });

  it('refuses a conflict naming the files, and nothing is half-merged', async () => {
    const r = repo();
    const { wt } = await made1(r);
    fs.writeFileSync(path.join(r, 'a.txt'), 'main side\n');
    sh(r, 'commit', '--quiet', '-am', 'main side');
    const before = sh(r, 'rev-parse', 'main');
    fs.writeFileSync(path.join(wt.path, 'a.txt'), 'chat side\n');
    await expect(mergeWorktree(git, wt, 'A chat')).rejects.toThrow(/Not merged: waypoint\/0123abcd and main both changed a\.txt/);
    expect(sh(r, 'rev-parse', 'main')).toBe(before);
    expect(sh(r, 'status', '--porcelain')).toBe('');
    expect(fs.readFileSync(path.join(r, 'a.txt'), 'utf8')).toBe('main side\n');
  });

  it('refuses while the main checkout has uncommitted changes, naming them', async () => {
    const r = repo();
    const { wt } = await made1(r);
    fs.writeFileSync(path.join(wt.path, 'new.txt'), 'x\n');
    fs.writeFileSync(path.join(r, 'b.txt'), 'user editing\n');
    const before = sh(r, 'rev-parse', 'main');
    await expect(mergeWorktree(git, wt, 'A chat')).rejects.toThrow(/has uncommitted changes in b\.txt/);
    expect(sh(r, 'rev-parse', 'main')).toBe(before);
    expect(fs.existsSync(path.join(r, 'new.txt'))).toBe(false);
  });
});

describe('no orphan worktrees', { timeout: 60_000 }, () => {
  it('a deleted chat takes its worktree and branch along; keep leaves the branch with the work committed', async () => {
    const r = repo();
    const { wt } = await made1(r);
    fs.writeFileSync(path.join(wt.path, 'new.txt'), 'x\n');
    await forgetChatWorktree(git, wt, { keepBranch: true, title: 't' });
    expect(fs.existsSync(wt.path)).toBe(false);
    expect(sh(r, 'show', 'waypoint/0123abcd:new.txt')).toBe('x\n');
    sh(r, 'branch', '-D', 'waypoint/0123abcd');

    const again = await made1(r);
    fs.writeFileSync(path.join(again.wt.path, 'new.txt'), 'x\n');
    await forgetChatWorktree(git, again.wt, { keepBranch: false, title: 't' });
    expect(fs.existsSync(again.wt.path)).toBe(false);
    expect(sh(r, 'branch', '--list', 'waypoint/*')).toBe('');
    expect(sh(r, 'worktree', 'list').trim().split('\n')).toHaveLength(1);
  });

  it('a deleted chat that changed nothing takes its branch along (a branch at its start is not "merged")', async () => {
    const r = repo();
    const { wt } = await made1(r);
    await forgetChatWorktree(git, wt, { keepBranch: false, title: 't' });
    expect(sh(r, 'branch', '--list', 'waypoint/*')).toBe('');
  });

  it('at start, worktrees of chats that no longer exist go, with their branches; Settings counts what is left', async () => {
    const r = repo();
    const dataDir = tempDir();
    const { wt, worktreesDir } = await made1(r, dataDir);
    expect((await worktreeUsage(worktreesDir)).count).toBe(1);
    expect(await sweepOrphanWorktrees(git, worktreesDir, (id) => id === CHAT)).toBe(0);
    expect(fs.existsSync(wt.path)).toBe(true);
    expect(await sweepOrphanWorktrees(git, worktreesDir, () => false)).toBe(1);
    expect(fs.existsSync(wt.path)).toBe(false);
    expect(sh(r, 'branch', '--list', 'waypoint/*')).toBe('');
    expect(sh(r, 'worktree', 'list').trim().split('\n')).toHaveLength(1);
    expect(await worktreeUsage(worktreesDir)).toEqual({ count: 0, bytes: 0 });
  });
});
