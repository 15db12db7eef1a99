import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ToolUseBlock } from '@anthropic-ai/sdk/resources/messages';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { defaultSettings } from '../../shared/settings';
import type { ToolDefinition, ToolOutcome } from '../tools/tool';
import { RecoveryService } from './recovery-service';
import type { RecoveryPlans } from './recovery-types';

// What run_command changes in a plain folder, through the recovery hooks the executor calls
// around every tool: real git (the shadow repository) and real shell commands.

let holder: string;
let workspace: string;
let dataDir: string;
let recovery: RecoveryService;

const noPlans: RecoveryPlans = {
  getPlan: () => null,
  currentStepId: () => null,
  recordAttempt: () => false,
  skipStep: () => false,
  restartStep: () => false,
  cancelPlan: () => false,
};
const RUN_COMMAND = { name: 'run_command', group: 'workspace' } as unknown as ToolDefinition;
const WRITE_FILE = { name: 'write_file', group: 'workspace' } as unknown as ToolDefinition;

beforeEach(() => {
  holder = mkdtempSync(join(tmpdir(), 'waypoint-commands-'));
  workspace = join(holder, 'ws');
  dataDir = join(holder, 'data');
  mkdirSync(workspace);
  recovery = new RecoveryService({ plans: noPlans, dataDir });
});
afterEach(() => rmSync(holder, { recursive: true, force: true }));

let calls = 0;
/**
 * One run_command call as the executor makes it: hooks before, the real command, hooks after. A
 * non-zero exit is an ok outcome, as run_command gives it; `timedOut` gives the failed outcome a
 * command cut off at its time limit gets (it may have changed files before).
 */
async function command(script: string, { timedOut = false, runOf = '', chat = 's' } = {}): Promise<void> {
  const hooks = recovery.hooksFor({ sessionId: runOf || chat, chatId: chat, signal: new AbortController().signal, settings: { ...defaultSettings(), retryDelayMs: 0 }, workspace, turn: 't1' });
  const block = { type: 'tool_use', id: `call-${++calls}`, name: 'run_command', input: { command: script } } as ToolUseBlock;
  await hooks.beforeExecute(block, RUN_COMMAND);
  try {
    execFileSync('sh', ['-c', script], { cwd: workspace, stdio: 'ignore' });
  } catch {
    // exit codes are the command's news, not a fault
  }
  const outcome: ToolOutcome = timedOut ? { ok: false, error: { kind: 'timeout', message: 'timed out' } } : { ok: true, content: 'ran' };
  await hooks.afterExecute({ block, tool: RUN_COMMAND, outcome, durationMs: 1 });
}

const changes = (chat = 's') => recovery.folderChanges.list(chat, workspace);

/** Every git object file (loose or packed) anywhere under `dir`: the shadows' disk use. */
function objectFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return (readdirSync(dir, { recursive: true }) as string[])
    .map((rel) => rel.split(/[\\/]/))
    .filter((parts) => {
      const i = parts.findIndex((part, at) => /^[0-9a-f]{2}$/.test(part) && at + 1 === parts.length - 1);
      return (i > 0 && /^[0-9a-f]{38,62}$/.test(parts[i + 1]!)) || /\.pack$/.test(parts.at(-1)!);
    })
    .map((parts) => parts.join('/'));
}

describe("a plain folder's Changes see what commands did", () => {
  it('lists files a command created, changed and deleted, with lines added and removed; diff and revert put back the content from before', async () => {
    writeFileSync(join(workspace, 'kept.md'), 'one\ntwo\n');
    writeFileSync(join(workspace, 'gone.md'), 'bye\nbye\nbye\n');
    mkdirSync(join(workspace, 'sub'));
    writeFileSync(join(workspace, 'sub', 'deep.txt'), 'deep\n');
    await command("printf 'a\\nb\\n' > made.txt && echo three >> kept.md && rm gone.md && echo deeper > sub/deep.txt");

    expect(await changes()).toEqual([
      { path: 'gone.md', status: 'deleted', added: 0, removed: 3 },
      { path: 'kept.md', status: 'modified', added: 1, removed: 0 },
      { path: 'made.txt', status: 'added', added: 2, removed: 0 },
      { path: 'sub/deep.txt', status: 'modified', added: 1, removed: 1 },
    ]);
    expect(await recovery.folderChanges.diff('s', workspace, 'kept.md')).toContain('+three');

    await recovery.folderChanges.revert('s', workspace, 'kept.md');
    await recovery.folderChanges.revert('s', workspace, 'gone.md');
    await recovery.folderChanges.revert('s', workspace, 'made.txt');
    expect(readFileSync(join(workspace, 'kept.md'), 'utf8')).toBe('one\ntwo\n');
    expect(readFileSync(join(workspace, 'gone.md'), 'utf8')).toBe('bye\nbye\nbye\n');
    expect(existsSync(join(workspace, 'made.txt'))).toBe(false);
    expect((await changes()).map((f) => f.path)).toEqual(['sub/deep.txt']);
    // Nothing of Waypoint's is left in the folder.
    expect(readdirSync(workspace).sort()).toEqual(['gone.md', 'kept.md', 'sub']);
  });

  it('keeps the content from before the first command that changed a file, and a command that failed or timed out counts too', async () => {
    writeFileSync(join(workspace, 'a.txt'), 'first\n');
    await command('echo second > a.txt');
    await command('echo third > a.txt; exit 1');
    await command('echo fourth > b.txt', { timedOut: true });
    expect(await changes()).toEqual([
      { path: 'a.txt', status: 'modified', added: 1, removed: 1 },
      { path: 'b.txt', status: 'added', added: 1, removed: 0 },
    ]);
    await recovery.folderChanges.revert('s', workspace, 'a.txt');
    expect(readFileSync(join(workspace, 'a.txt'), 'utf8')).toBe('first\n');
  });

  it("a file Claude's file tools changed first keeps their checkpoint; a change by someone else between commands is not the chat's", async () => {
    writeFileSync(join(workspace, 'w.txt'), 'original\n');
    const hooks = recovery.hooksFor({ sessionId: 's', signal: new AbortController().signal, settings: { ...defaultSettings(), retryDelayMs: 0 }, workspace, turn: 't1' });
    const write = { type: 'tool_use', id: 'write-1', name: 'write_file', input: { path: 'w.txt', content: 'by the tool\n' } } as ToolUseBlock;
    await hooks.beforeExecute(write, WRITE_FILE);
    writeFileSync(join(workspace, 'w.txt'), 'by the tool\n');
    await hooks.afterExecute({ block: write, tool: WRITE_FILE, outcome: { ok: true, content: 'written' } as never, durationMs: 1 });
    await command('echo by the command >> w.txt');
    writeFileSync(join(workspace, 'user.txt'), 'the user wrote this between commands\n');
    await command('true');
    expect(await changes()).toEqual([{ path: 'w.txt', status: 'modified', added: 2, removed: 1 }]);
    await recovery.folderChanges.revert('s', workspace, 'w.txt');
    expect(readFileSync(join(workspace, 'w.txt'), 'utf8')).toBe('original\n');
  });

  it("leaves the user's own repository as it was, honours its .gitignore and skips node_modules", async () => {
    const git = (...args: string[]) => execFileSync('git', args, { cwd: workspace, encoding: 'utf8', env: { ...process.env, GIT_AUTHOR_NAME: 'T', GIT_AUTHOR_EMAIL: 't@example.com', GIT_COMMITTER_NAME: 'T', GIT_COMMITTER_EMAIL: 't@example.com' } });
    writeFileSync(join(workspace, '.gitignore'), 'build/\n');
    writeFileSync(join(workspace, 'src.txt'), 'code\n');
    git('init', '--quiet', '--initial-branch=main');
    git('add', '.');
    git('commit', '--quiet', '-m', 'first');
    const index = readFileSync(join(workspace, '.git', 'index'));
    await command('mkdir -p build node_modules/x && echo out > build/a.js && echo dep > node_modules/x/i.js && echo more >> src.txt');
    expect((await changes()).map((f) => f.path)).toEqual(['src.txt']);
    expect(readFileSync(join(workspace, '.git', 'index')).equals(index)).toBe(true);
    // The command's own changes, and nothing of Waypoint's.
    expect(git('status', '--porcelain')).toBe(' M src.txt\n?? node_modules/\n');
    expect(git('log', '--format=%s')).toBe('first\n');
  });

  it('a folder too slow to snapshot is not followed: the command still runs, and Changes says why', async () => {
    recovery = new RecoveryService({ plans: noPlans, dataDir, commandSnapshotLimitMs: 1 });
    writeFileSync(join(workspace, 'a.txt'), 'a\n');
    await command('echo more >> a.txt');
    expect(readFileSync(join(workspace, 'a.txt'), 'utf8')).toBe('a\nmore\n');
    expect(await changes()).toEqual([]);
    expect(recovery.folderChanges.note('s', workspace)).toBe(`${workspace} is too big to snapshot in time, so what commands change there is not listed; files Claude's file tools changed are.`);
    expect(recovery.folderChanges.note('s', join(holder, 'elsewhere'))).toBeNull();
  });

  it("a sub-agent's command is in its parent chat's Changes", async () => {
    await command('echo by the sub-agent > sub.txt', { runOf: 'sub-agent-1' });
    expect(await changes()).toEqual([{ path: 'sub.txt', status: 'added', added: 1, removed: 0 }]);
  });

  it('keeps a binary file byte for byte', async () => {
    const bytes = Buffer.from([0, 1, 2, 255, 254, 10, 0, 128]);
    writeFileSync(join(workspace, 'b.bin'), bytes);
    await command('printf x >> b.bin');
    expect(await changes()).toEqual([{ path: 'b.bin', status: 'modified', added: null, removed: null }]);
    expect(await recovery.folderChanges.diff('s', workspace, 'b.bin')).toBe('Binary files a/b.bin and b/b.bin differ\n');
    await recovery.folderChanges.revert('s', workspace, 'b.bin');
    expect(readFileSync(join(workspace, 'b.bin')).equals(bytes)).toBe(true);
  });
});

describe('chats in the same folder share one object store', () => {
  beforeEach(() => {
    // An hour old, as files of a real folder are: git trusts their stat and does not hash them again.
    const old = new Date(Date.now() - 3_600_000);
    for (let i = 0; i < 30; i++) {
      writeFileSync(join(workspace, `file-${i}.txt`), `content of file ${i}\n`.repeat(50));
      utimesSync(join(workspace, `file-${i}.txt`), old, old);
    }
  });

  it("a second chat's first snapshot stores (almost) nothing new", async () => {
    await command('echo one >> file-0.txt', { chat: 'a' });
    const afterOne = objectFiles(dataDir).length;
    expect(afterOne).toBeGreaterThanOrEqual(30);
    await command('echo two >> file-1.txt', { chat: 'b' });
    // The second chat adds its own trees and the changed file only, not another copy of all 30 files.
    expect(objectFiles(dataDir).length - afterOne).toBeLessThanOrEqual(5);
    expect(await changes('a')).toEqual([{ path: 'file-0.txt', status: 'modified', added: 1, removed: 0 }]);
    expect(await changes('b')).toEqual([{ path: 'file-1.txt', status: 'modified', added: 1, removed: 0 }]);
  });

  it("deleting one chat leaves the other's snapshots and Revert working; the last chat of the folder takes the store with it", async () => {
    await command('echo one >> file-0.txt', { chat: 'a' });
    await command('echo two >> file-1.txt', { chat: 'b' });
    await recovery.forgetChat('a');
    expect(objectFiles(join(dataDir, 'checkpoints', 'a'))).toEqual([]);
    expect(objectFiles(dataDir).length).toBeGreaterThanOrEqual(30);

    await command('rm file-2.txt && echo three >> file-3.txt', { chat: 'b' });
    expect((await changes('b')).map((f) => f.path)).toEqual(['file-1.txt', 'file-2.txt', 'file-3.txt']);
    await recovery.folderChanges.revert('b', workspace, 'file-2.txt');
    await recovery.folderChanges.revert('b', workspace, 'file-1.txt');
    expect(readFileSync(join(workspace, 'file-2.txt'), 'utf8')).toBe('content of file 2\n'.repeat(50));
    expect(readFileSync(join(workspace, 'file-1.txt'), 'utf8')).toBe('content of file 1\n'.repeat(50));

    await recovery.forgetChat('b');
    expect(objectFiles(dataDir)).toEqual([]);
    expect(readdirSync(dataDir).filter((name) => name !== 'checkpoints')).toEqual([]);
  });

  it('at start, the checkpoints and shadows of chats that no longer exist go, and a shared store goes once no chat uses it', async () => {
    await command('echo one >> file-0.txt', { chat: 'a' });
    await command('echo two >> file-1.txt', { chat: 'b' });
    // A sub-agent of chat a keeps turn checkpoints of its own (`a~agent-1`).
    await command('echo three >> file-2.txt', { chat: 'a', runOf: 'a~agent-1' });
    // A store of another folder no chat has a shadow of (its last chat's delete was cut short).
    const other = join(holder, 'other');
    mkdirSync(other);
    writeFileSync(join(other, 'x.txt'), 'x\n');
    const saved = workspace;
    workspace = other;
    await command('echo y >> x.txt', { chat: 'c' });
    workspace = saved;
    const stores = () => readdirSync(join(dataDir, 'shadow-objects')).sort();
    expect(stores()).toHaveLength(2);
    expect(readdirSync(join(dataDir, 'checkpoints')).sort()).toEqual(['a', 'a_agent-1', 'b', 'c']);

    // Chat c is gone (deleted by hand): its folder goes, and its folder's store with it; a and b stay.
    const live = new Set(['a', 'b']);
    expect(await recovery.sweepOrphans((id) => live.has(id))).toEqual({ chats: 1, stores: 1 });
    expect(readdirSync(join(dataDir, 'checkpoints')).sort()).toEqual(['a', 'a_agent-1', 'b']);
    expect(stores()).toHaveLength(1);
    expect(await changes('b')).toEqual([{ path: 'file-1.txt', status: 'modified', added: 1, removed: 0 }]);

    // Chat a goes too: its sub-agent's checkpoints with it; b still uses the store.
    live.delete('a');
    expect(await recovery.sweepOrphans((id) => live.has(id))).toEqual({ chats: 2, stores: 0 });
    expect(readdirSync(join(dataDir, 'checkpoints'))).toEqual(['b']);
    expect(stores()).toHaveLength(1);
    await recovery.folderChanges.revert('b', workspace, 'file-1.txt');
    expect(readFileSync(join(workspace, 'file-1.txt'), 'utf8')).toBe('content of file 1\n'.repeat(50));

    // None left: nothing of either is left on disk.
    expect(await recovery.sweepOrphans(() => false)).toEqual({ chats: 1, stores: 1 });
    expect(objectFiles(dataDir)).toEqual([]);
  });

  it('deleting a chat takes its sub-agents\' checkpoints along', async () => {
    await command('echo one >> file-0.txt', { chat: 'a', runOf: 'a~agent-1' });
    await command('echo two >> file-1.txt', { chat: 'ab' });
    await recovery.forgetChat('a');
    expect(readdirSync(join(dataDir, 'checkpoints'))).toEqual(['ab']);
  });

  it('a shadow whose objects are gone (a store removed by hand, or made before stores were shared) hashes the folder afresh', async () => {
    await command('echo one >> file-0.txt', { chat: 'a' });
    rmSync(join(dataDir, 'shadow-objects'), { recursive: true, force: true });
    await command('echo two >> file-1.txt', { chat: 'a' });
    expect((await changes('a')).map((f) => f.path)).toEqual(['file-0.txt', 'file-1.txt']);
    await recovery.folderChanges.revert('a', workspace, 'file-1.txt');
    expect(readFileSync(join(workspace, 'file-1.txt'), 'utf8')).toBe('content of file 1\n'.repeat(50));
  });

  it('two chats snapshotting the same folder at once both see their own changes', async () => {
    await Promise.all([command('echo one >> file-0.txt', { chat: 'a' }), command('echo two > new.txt', { chat: 'b' })]);
    // Each chat's command ran between its own before and after, so each sees at least its own file.
    expect((await changes('a')).map((f) => f.path)).toContain('file-0.txt');
    expect((await changes('b')).map((f) => f.path)).toContain('new.txt');
    await command('echo three >> file-5.txt', { chat: 'a' });
    await command('echo four >> file-6.txt', { chat: 'b' });
    expect((await changes('a')).map((f) => f.path)).toContain('file-5.txt');
    expect((await changes('b')).map((f) => f.path)).toContain('file-6.txt');
  });
});
