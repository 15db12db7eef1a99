import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createWorkspaceTools } from './index';
import { expectOk, findTool, makeContext, makeWorkspace, type TempWorkspace } from '../../../../test-support/main/test-workspace';
import { callTool } from '../define-tool';

/**
 * Nothing in the workspace can freeze Waypoint: a catastrophic regular expression, a FIFO where
 * a file is expected (read on the main thread by an approval's dry run, or in the thread pool by
 * a search). Each of these hung the whole app before.
 */
let ws: TempWorkspace;
const fifos: string[] = [];

beforeEach(() => {
  ws = makeWorkspace();
});
afterEach(() => {
  // A reader still blocked on a FIFO (old code) is released by opening the other end.
  for (const fifo of fifos.splice(0)) {
    try {
      fs.closeSync(fs.openSync(fifo, fs.constants.O_WRONLY | fs.constants.O_NONBLOCK));
    } catch {
      // No reader waits on it.
    }
  }
  ws.cleanup();
});

function mkfifo(rel: string): string {
  const abs = path.join(ws.root, rel);
  fs.mkdirSync(path.dirname(abs), { recursive: true });
  execFileSync('mkfifo', [abs]);
  fifos.push(abs);
  return abs;
}

/** Resolves with the promise's value, or rejects after `ms` (the event loop must stay free for this to work). */
function within<T>(ms: number, promise: Promise<T>): Promise<T> {
  return Promise.race([promise, new Promise<T>((_, reject) => setTimeout(() => reject(new Error(`still running after ${ms} ms`)), ms))]);
}

describe('no input freezes the app', () => {
  it('a catastrophic regular expression searches in linear time', async () => {
    // ^(a+)+$ against 29 a's and a "!" takes ~10 s of backtracking in V8, doubling per character.
    ws.write('evil.txt', `${'a'.repeat(29)}!\nplain line\n${'a'.repeat(10)}\n`);
    const search = findTool(createWorkspaceTools(ws.root), 'search_files');
    const started = performance.now();
    const text = expectOk(await callTool(search, { pattern: '^(a+)+$', regex: true }, makeContext()));
    expect(performance.now() - started).toBeLessThan(5000); // a freeze check, not a speed target: backtracking takes ~10 s here
    expect(text).toContain('evil.txt:3:');
    expect(text).not.toContain('evil.txt:1:');
    // Syntax RE2 cannot run in linear time is refused with a clear message, not run.
    const refused = await callTool(search, { pattern: '(a)\\1', regex: true }, makeContext());
    expect(refused.ok).toBe(false);
    if (!refused.ok) expect(refused.error.message).toMatch(/RE2 syntax/);
  }, 60_000);

  it('search skips FIFOs (and every other non-regular file) and leaves the thread pool free', async () => {
    ws.write('notes/a.txt', 'needle in a file\n');
    for (let i = 0; i < 6; i++) mkfifo(`notes/pipe-${i}`);
    const search = findTool(createWorkspaceTools(ws.root), 'search_files');
    const text = expectOk(await within(10_000, callTool(search, { pattern: 'needle' }, makeContext())));
    expect(text).toContain('notes/a.txt:1: needle in a file');
    // Searching the FIFO itself is no different.
    expectOk(await within(10_000, callTool(search, { pattern: 'needle', path: 'notes/pipe-0' }, makeContext())));
    // Afterwards every file read still completes (no pool thread is stuck on a FIFO).
    const reads = Array.from({ length: 8 }, () => fs.promises.readFile(path.join(ws.root, 'notes/a.txt'), 'utf8'));
    expect(await within(5_000, Promise.all(reads))).toHaveLength(8);
  }, 30_000);

  it('read_file and edit_file refuse a FIFO instead of waiting on it', async () => {
    mkfifo('pipe');
    const tools = createWorkspaceTools(ws.root);
    const read = await within(10_000, callTool(findTool(tools, 'read_file'), { path: 'pipe' }, makeContext()));
    expect(read).toMatchObject({ ok: false, error: { kind: 'invalid_parameter' } });
    const edit = await within(10_000, callTool(findTool(tools, 'edit_file'), { path: 'pipe', old_text: 'a', new_text: 'b' }, makeContext()));
    expect(edit).toMatchObject({ ok: false, error: { kind: 'invalid_parameter', message: expect.stringMatching(/not a regular file/) } });
    const write = await within(10_000, callTool(findTool(tools, 'write_file'), { path: 'pipe', content: 'x' }, makeContext()));
    expect(write).toMatchObject({ ok: false, error: { kind: 'invalid_parameter' } });
  }, 30_000);

  it("the approval dry runs of write_file and edit_file return at once on a FIFO (they run on main's thread)", () => {
    mkfifo('pipe');
    // In a child process: on a blocking read the child, not this test, hangs — and is killed.
    const script = `
      import { createWorkspaceTools } from ${JSON.stringify(path.resolve('src/main/tools/workspace/index.ts'))};
      const tools = createWorkspaceTools(${JSON.stringify(ws.root)});
      const find = (n) => tools.find((t) => t.name === n);
      console.log(JSON.stringify([
        find('write_file').describeDryRun(find('write_file').parse({ path: 'pipe', content: 'new' }).value),
        find('edit_file').describeDryRun(find('edit_file').parse({ path: 'pipe', old_text: 'a', new_text: 'b' }).value),
      ]));`;
    const file = path.join(ws.root, 'dry-run.mts');
    fs.writeFileSync(file, script);
    const child = spawnSync(process.execPath, ['--import', 'tsx', file], { encoding: 'utf8', timeout: 20_000 });
    expect(child.signal, 'the dry run blocked on the FIFO and was killed').toBeNull();
    const [write, edit] = JSON.parse(child.stdout.trim().split('\n').at(-1)!) as string[];
    expect(write).toMatch(/^Cannot write pipe: .*not a regular file/);
    expect(edit).toMatch(/^Cannot edit pipe: .*not a regular file/);
  }, 30_000);
});
