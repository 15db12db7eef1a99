import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startTestApp, type TestApp } from '../../../test-support/main/app-test-kit';
import { BY_COMMAND, PLAIN_GONE, PLAIN_GONE_TEXT, PLAIN_KEPT, PLAIN_KEPT_TEXT, plainFolderCommand, WORKTREE_NOTES, WORKTREE_NOTES_TEXT, WORKTREE_NOTES_WRITTEN, worktreeChat } from '../../../test-support/scenarios/worktree';

/**
 * Settings "Work in a git worktree" through the whole app (issue 27): real git in a temporary
 * repository, the scripted Claude writing a file and running a command, Changes, Merge, Delete.
 */
const ENV = { ...process.env, GIT_AUTHOR_NAME: 'T', GIT_AUTHOR_EMAIL: 't@example.com', GIT_COMMITTER_NAME: 'T', GIT_COMMITTER_EMAIL: 't@example.com' };
const git = (cwd: string, ...args: string[]): string => execFileSync('git', args, { cwd, env: ENV, encoding: 'utf8' });
const SETTINGS = { worktrees: true, autoApproveEdits: true, autoApproveCommands: true, retryDelayMs: 0 };

let app: TestApp | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

function repoIn(folder: string): void {
  git(folder, 'init', '--quiet', '--initial-branch=main');
  git(folder, 'config', 'user.name', 'T');
  git(folder, 'config', 'user.email', 't@example.com');
  git(folder, 'add', '.');
  git(folder, 'commit', '--quiet', '-m', 'first');
}

async function chatSent(text = 'Write the notes'): Promise<string> {
  const { id } = await app!.call('newSession', {});
  const from = app!.events.length;
  await app!.call('sendMessage', { sessionId: id, text });
  await app!.idle(id, from);
  return id;
}

describe('a chat in its own git worktree', { timeout: 90_000 }, () => {
  it('works only in its worktree, lists what it changed (commands too), merges into main, and goes when deleted', async () => {
    app = await startTestApp(worktreeChat, { files: { [WORKTREE_NOTES]: WORKTREE_NOTES_TEXT }, settings: SETTINGS });
    repoIn(app.workspace);
    const id = await chatSent();
    const { session } = await app.call('getSession', { sessionId: id });
    const wt = session.worktree!;
    expect(wt).toMatchObject({ branch: `waypoint/${id.replaceAll('-', '').slice(0, 8)}`, baseBranch: 'main', path: join(app.dataDir, 'worktrees', id) });
    expect(session.workspace).toBe(wt.path);
    // The user's checkout is as it was; the chat's file and its command's file are in the worktree.
    expect(readFileSync(join(app.workspace, WORKTREE_NOTES), 'utf8')).toBe(WORKTREE_NOTES_TEXT);
    expect(existsSync(join(app.workspace, BY_COMMAND))).toBe(false);
    expect(readFileSync(join(wt.path, WORKTREE_NOTES), 'utf8')).toBe(WORKTREE_NOTES_WRITTEN);
    expect(existsSync(join(wt.path, BY_COMMAND))).toBe(true);

    // Its folder is the worktree: another folder is refused while it has one.
    await expect(app.call('chooseWorkspace', { sessionId: id, folder: app.dir })).rejects.toThrow(/works in its own git worktree \(branch waypoint\/.*merge or discard it in Changes/);

    // The worktree survives a restart: it is in the chat's log.
    await app.restart();
    expect((await app.call('getSession', { sessionId: id })).session.worktree).toEqual(wt);

    expect((await app.call('getChanges', { sessionId: id })).files).toEqual([
      { path: WORKTREE_NOTES, status: 'modified', added: 2, removed: 0 },
      { path: BY_COMMAND, status: 'added', added: 1, removed: 0 },
    ].sort((a, b) => (a.path < b.path ? -1 : 1)));
    expect((await app.call('getFileDiff', { sessionId: id, path: WORKTREE_NOTES })).diff).toContain('+Written in the worktree.');
    expect((await app.call('revertFile', { sessionId: id, path: BY_COMMAND })).files.map((f) => f.path)).toEqual([WORKTREE_NOTES]);

    await app.call('mergeWorktree', { sessionId: id });
    expect(readFileSync(join(app.workspace, WORKTREE_NOTES), 'utf8')).toBe(WORKTREE_NOTES_WRITTEN);
    expect(existsSync(join(app.workspace, BY_COMMAND))).toBe(false);

    await app.call('deleteSession', { sessionId: id });
    expect(existsSync(wt.path)).toBe(false);
    expect(git(app.workspace, 'worktree', 'list').trim().split('\n')).toHaveLength(1);
    // Merged, its branch names work main took: it stays.
    expect(git(app.workspace, 'branch', '--list', '--format=%(refname:short)', 'waypoint/*').trim()).toBe(wt.branch);
  });

  it('a new chat starts its worktree when it is made, before its first message, which then works there', async () => {
    app = await startTestApp(worktreeChat, { files: { [WORKTREE_NOTES]: WORKTREE_NOTES_TEXT }, settings: SETTINGS });
    repoIn(app.workspace);
    const { id } = await app.call('newSession', {});
    const folder = join(app.dataDir, 'worktrees', id);
    // Made in the background: no message sent yet, nothing on the chat's record.
    await vi.waitFor(() => expect(git(app!.workspace, 'worktree', 'list')).toContain(folder), { timeout: 30_000, interval: 50 });
    expect((await app.call('getSession', { sessionId: id })).session.worktree).toBeUndefined();
    const from = app.events.length;
    await app.call('sendMessage', { sessionId: id, text: 'Write the notes' });
    await app.idle(id, from);
    const { session } = await app.call('getSession', { sessionId: id });
    expect(session.worktree?.path).toBe(folder);
    expect(readFileSync(join(folder, WORKTREE_NOTES), 'utf8')).toBe(WORKTREE_NOTES_WRITTEN);
    expect(git(app.workspace, 'worktree', 'list').trim().split('\n')).toHaveLength(2);
  });

  it('a chat deleted before its first message takes the worktree made for it along; one left by a quit process is used as it is', async () => {
    app = await startTestApp(worktreeChat, { files: { [WORKTREE_NOTES]: WORKTREE_NOTES_TEXT }, settings: SETTINGS });
    repoIn(app.workspace);
    const first = (await app.call('newSession', {})).id;
    await app.call('deleteSession', { sessionId: first });
    expect(existsSync(join(app.dataDir, 'worktrees', first))).toBe(false);
    expect(git(app.workspace, 'branch', '--list', 'waypoint/*')).toBe('');

    const { id } = await app.call('newSession', {});
    const folder = join(app.dataDir, 'worktrees', id);
    await vi.waitFor(() => expect(existsSync(join(folder, WORKTREE_NOTES))).toBe(true), { timeout: 30_000, interval: 50 });
    // The app quits before the first message: the worktree is on no record, and is not checked out again.
    const made = statSync(join(folder, '.git'), { bigint: true }).mtimeNs;
    await app.restart();
    const from = app.events.length;
    await app.call('sendMessage', { sessionId: id, text: 'Write the notes' });
    await app.idle(id, from);
    expect((await app.call('getSession', { sessionId: id })).session.worktree).toMatchObject({ path: folder, baseBranch: 'main', baseCommit: git(app.workspace, 'rev-parse', 'main').trim() });
    expect(readFileSync(join(folder, WORKTREE_NOTES), 'utf8')).toBe(WORKTREE_NOTES_WRITTEN);
    expect(git(app.workspace, 'worktree', 'list').trim().split('\n')).toHaveLength(2);
    expect(statSync(join(folder, '.git'), { bigint: true }).mtimeNs).toBe(made);
  });

  it('an unmerged chat deleted takes its branch along', async () => {
    app = await startTestApp(worktreeChat, { files: { [WORKTREE_NOTES]: WORKTREE_NOTES_TEXT }, settings: SETTINGS });
    repoIn(app.workspace);
    const id = await chatSent();
    expect(git(app.workspace, 'branch', '--list', '--format=%(refname:short)', 'waypoint/*').trim()).toBe(`waypoint/${id.replaceAll('-', '').slice(0, 8)}`);
    await app.call('deleteSession', { sessionId: id });
    expect(git(app.workspace, 'branch', '--list', 'waypoint/*')).toBe('');
    expect(existsSync(join(app.dataDir, 'worktrees', id))).toBe(false);
  });

  it('Discard worktree: the chat goes on in the repository and says so', async () => {
    app = await startTestApp(worktreeChat, { files: { [WORKTREE_NOTES]: WORKTREE_NOTES_TEXT }, settings: SETTINGS });
    repoIn(app.workspace);
    const id = await chatSent();
    const { session } = await app.call('discardWorktree', { sessionId: id });
    expect(session.worktree).toBeUndefined();
    expect(session.workspace).toBe(app.workspace);
    expect(existsSync(join(app.dataDir, 'worktrees', id))).toBe(false);
    expect(git(app.workspace, 'branch', '--list', 'waypoint/*')).toBe('');
  });

  it('at start, a worktree whose checkout was cut off is never taken for the chat\'s work: Changes says why, Merge is refused, Discard clears it', async () => {
    app = await startTestApp(worktreeChat, { files: { [WORKTREE_NOTES]: WORKTREE_NOTES_TEXT, 'kept.txt': 'kept\n' }, settings: SETTINGS, services: { unfinishedCheckoutWaitMs: 1_000 } });
    repoIn(app.workspace);
    const id = await chatSent();
    const wt = (await app.call('getSession', { sessionId: id })).session.worktree!;
    // What a process killed in the middle of `git worktree add` (its git with it) leaves: git's
    // "initializing" lock, and only part of the commit's files.
    writeFileSync(join(git(wt.path, 'rev-parse', '--absolute-git-dir').trim(), 'locked'), 'initializing\n');
    rmSync(join(wt.path, 'kept.txt'));
    await app.restart();
    const changes = await app.call('getChanges', { sessionId: id });
    expect(changes).toMatchObject({ files: [], worktree: wt });
    expect(changes.note).toMatch(/worktree \(.*\) was cut off while git was still writing it .* nothing in it is used, changed or merged\. Open Changes and press "Discard worktree"/);
    await expect(app.call('mergeWorktree', { sessionId: id })).rejects.toThrow(/was cut off while git was still writing it/);
    expect(git(app.workspace, 'ls-tree', '--name-only', 'main')).toContain('kept.txt');
    const { session } = await app.call('discardWorktree', { sessionId: id });
    expect(session.worktree).toBeUndefined();
    expect(existsSync(wt.path)).toBe(false);
    expect(git(app.workspace, 'branch', '--list', 'waypoint/*')).toBe('');
  });

  it('at start, a worktree still locked by a git that outlived its process is waited for, then used as it is', async () => {
    app = await startTestApp(worktreeChat, { files: { [WORKTREE_NOTES]: WORKTREE_NOTES_TEXT }, settings: SETTINGS, services: { unfinishedCheckoutWaitMs: 30_000 } });
    repoIn(app.workspace);
    const id = await chatSent();
    const before = await app.call('getChanges', { sessionId: id });
    const wt = before.worktree!;
    const lock = join(git(wt.path, 'rev-parse', '--absolute-git-dir').trim(), 'locked');
    writeFileSync(lock, 'initializing\n');
    await app.restart();
    let answered = false;
    const listing = app.call('getChanges', { sessionId: id }).finally(() => (answered = true));
    await new Promise((r) => setTimeout(r, 600));
    expect(answered).toBe(false); // waiting at the gate while git's lock is there
    rmSync(lock); // that git finished
    expect(await listing).toEqual(before);
  });

  it('a worktree folder deleted by hand: the next message is refused with what to do', async () => {
    app = await startTestApp(worktreeChat, { files: { [WORKTREE_NOTES]: WORKTREE_NOTES_TEXT }, settings: SETTINGS });
    repoIn(app.workspace);
    const id = await chatSent();
    rmSync(join(app.dataDir, 'worktrees', id), { recursive: true, force: true });
    await expect(app.call('sendMessage', { sessionId: id, text: 'again' })).rejects.toThrow(/was deleted outside Waypoint.*Discard worktree/);
  });

  it('at start, the worktree of a chat that no longer exists is removed; Settings counts what is left', async () => {
    app = await startTestApp(worktreeChat, { files: { [WORKTREE_NOTES]: WORKTREE_NOTES_TEXT }, settings: SETTINGS });
    repoIn(app.workspace);
    const id = await chatSent();
    expect((await app.call('getWorktreeUsage', {})).count).toBe(1);
    // The chat's folder gone without Waypoint (a delete cut short by a crash).
    await app.services.dispose();
    rmSync(join(app.dataDir, 'sessions', id), { recursive: true, force: true });
    await app.restart();
    expect(await app.call('cleanUpWorktrees', {})).toEqual({ removed: 0, count: 0, bytes: 0 });
    expect(existsSync(join(app.dataDir, 'worktrees', id))).toBe(false);
    expect(git(app.workspace, 'branch', '--list', 'waypoint/*')).toBe('');
  });

  it('at start, the command shadows of a plain-folder chat that no longer exists go, and the folder\'s shared store with them', async () => {
    // Two chats, each running the command once (the scripted turns are the server's, taken in order).
    const twice = { ...plainFolderCommand, turns: [...plainFolderCommand.turns, ...plainFolderCommand.turns] };
    app = await startTestApp(twice, { files: { [PLAIN_KEPT]: PLAIN_KEPT_TEXT, [PLAIN_GONE]: PLAIN_GONE_TEXT }, settings: { ...SETTINGS, worktrees: false } });
    const gone = await chatSent('Tidy up');
    const kept = await chatSent('Tidy up again');
    const shadows = () => readdirSync(join(app!.dataDir, 'checkpoints')).sort();
    expect(shadows()).toEqual([gone, kept].sort());
    expect(readdirSync(join(app.dataDir, 'shadow-objects'))).toHaveLength(1);
    // One chat's folder gone without Waypoint (a delete cut short by a crash), then the other's.
    await app.services.dispose();
    rmSync(join(app.dataDir, 'sessions', gone), { recursive: true, force: true });
    await app.restart();
    await vi.waitFor(() => expect(shadows()).toEqual([kept]), { timeout: 30_000, interval: 50 });
    expect(readdirSync(join(app.dataDir, 'shadow-objects'))).toHaveLength(1);
    await app.services.dispose();
    rmSync(join(app.dataDir, 'sessions', kept), { recursive: true, force: true });
    await app.restart();
    await vi.waitFor(() => expect(existsSync(join(app!.dataDir, 'shadow-objects')) ? readdirSync(join(app!.dataDir, 'shadow-objects')) : []).toEqual([]), { timeout: 30_000, interval: 50 });
    expect(shadows()).toEqual([]);
  });

  it('a folder that is no git repository: the chat works there and says why once', async () => {
    app = await startTestApp(worktreeChat, { files: { [WORKTREE_NOTES]: WORKTREE_NOTES_TEXT }, settings: SETTINGS });
    const id = await chatSent();
    await app.call('sendMessage', { sessionId: id, text: 'more' });
    await app.idle(id);
    const { session, transcript } = await app.call('getSession', { sessionId: id });
    expect(session.worktree).toBeUndefined();
    expect(readFileSync(join(app.workspace, WORKTREE_NOTES), 'utf8')).toBe(WORKTREE_NOTES_WRITTEN);
    expect(transcript.filter((item) => item.kind === 'notice' && /not inside a git repository/.test(item.text))).toHaveLength(1);
    // Changes of a plain folder: what Claude's file tools wrote (their checkpoints) and what its command made (its snapshots).
    expect((await app.call('getChanges', { sessionId: id })).files).toEqual([
      { path: WORKTREE_NOTES, status: 'modified', added: 2, removed: 0 },
      { path: BY_COMMAND, status: 'added', added: 1, removed: 0 },
    ].sort((a, b) => (a.path < b.path ? -1 : 1)));
    await app.call('revertFile', { sessionId: id, path: WORKTREE_NOTES });
    expect(readFileSync(join(app.workspace, WORKTREE_NOTES), 'utf8')).toBe(WORKTREE_NOTES_TEXT);
    await app.call('revertFile', { sessionId: id, path: BY_COMMAND });
    expect(existsSync(join(app.workspace, BY_COMMAND))).toBe(false);
  });
});
