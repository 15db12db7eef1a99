import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createWorkspaceTools } from './index';
import { expectFail, expectOk, findTool, makeContext, makeWorkspace, type TempWorkspace, parsedInput } from '../../../../test-support/main/test-workspace';
import { callTool } from '../define-tool';

/**
 * Confinement by the identity of the file opened, not the path string checked: a hard link to
 * an outside file, and a folder swapped for a symlink to outside while the tools work, must never
 * let a read, write, edit, listing or search reach outside.
 */
let ws: TempWorkspace;
let outside: string;
const SECRET = 'OUTSIDE-SECRET-4f1c';

beforeEach(() => {
  ws = makeWorkspace();
  outside = fs.mkdtempSync(path.join(os.tmpdir(), 'waypoint-outside-'));
  fs.writeFileSync(path.join(outside, 'secret.txt'), `${SECRET}\n`);
  fs.writeFileSync(path.join(outside, 'outside-only.txt'), `${SECRET}\n`);
});
afterEach(() => {
  ws.cleanup();
  fs.rmSync(outside, { recursive: true, force: true });
});

describe('confinement by file identity', () => {
  it('a hard link to an outside file is not read, edited, overwritten or searched', async () => {
    const tools = createWorkspaceTools(ws.root);
    fs.linkSync(path.join(outside, 'secret.txt'), path.join(ws.root, 'linked.txt'));
    const run = (name: string, input: unknown) => callTool(findTool(tools, name), input, makeContext());
    expect(expectFail(await run('read_file', { path: 'linked.txt' }))).toMatchObject({ kind: 'permission', message: expect.stringMatching(/hard links/) });
    expect(expectFail(await run('edit_file', { path: 'linked.txt', old_text: SECRET, new_text: 'pwned' })).kind).toBe('permission');
    expect(expectFail(await run('write_file', { path: 'linked.txt', content: 'pwned' })).kind).toBe('permission');
    expect(expectOk(await run('search_files', { pattern: SECRET }))).toMatch(/^No matches/);
    expect(findTool(tools, 'write_file').describeDryRun(parsedInput(findTool(tools, 'write_file'), { path: 'linked.txt', content: 'x' }))).toMatch(/hard links/);
    expect(findTool(tools, 'edit_file').describeDryRun(parsedInput(findTool(tools, 'edit_file'), { path: 'linked.txt', old_text: SECRET, new_text: 'x' }))).toMatch(/hard links/);
    expect(fs.readFileSync(path.join(outside, 'secret.txt'), 'utf8')).toBe(`${SECRET}\n`);
  });

  it('a file named ..notes (or ...) is a file inside the workspace', async () => {
    const tools = createWorkspaceTools(ws.root);
    expectOk(await callTool(findTool(tools, 'write_file'), { path: '..notes', content: 'mine\n' }, makeContext()));
    expect(expectOk(await callTool(findTool(tools, 'read_file'), { path: '..notes' }, makeContext()))).toBe('mine\n');
    expectOk(await callTool(findTool(tools, 'write_file'), { path: 'sub/...', content: 'dots\n' }, makeContext()));
    expect(expectOk(await callTool(findTool(tools, 'list_directory'), {}, makeContext()))).toContain('..notes');
    expect(expectFail(await callTool(findTool(tools, 'read_file'), { path: '../x' }, makeContext())).kind).toBe('permission');
  });

  it('a folder swapped for a symlink to outside, over and over while the tools run: nothing escapes', async () => {
    const sub = path.join(ws.root, 'sub');
    fs.mkdirSync(sub);
    fs.writeFileSync(path.join(sub, 'secret.txt'), 'inside\n');
    const swapper = startSwapper(sub, outside);
    const tools = createWorkspaceTools(ws.root);
    const ctx = makeContext();
    const escapes: string[] = [];
    let reads = 0;
    let writes = 0;
    let nestedWrites = 0;
    try {
      await swapper.running;
      for (let i = 0; i < 1500; i++) {
        const read = await callTool(findTool(tools, 'read_file'), { path: 'sub/secret.txt' }, ctx);
        if (read.ok) reads++;
        if (read.ok && read.content.includes(SECRET)) escapes.push(`read ${i}`);
        const write = await callTool(findTool(tools, 'write_file'), { path: `sub/new-${i}.txt`, content: 'written\n' }, ctx);
        if (write.ok) writes++;
        // A write that creates its parent folders (mkdir -p) while sub is a link: none may appear outside.
        const nested = await callTool(findTool(tools, 'write_file'), { path: `sub/made-${i}/deeper/new.txt`, content: 'written\n' }, ctx);
        if (nested.ok) nestedWrites++;
        // Only the outside file holds SECRET: an edit that reaches it changes it.
        await callTool(findTool(tools, 'edit_file'), { path: 'sub/secret.txt', old_text: SECRET, new_text: 'pwned' }, ctx);
        if (i % 50 === 0) {
          const listed = await callTool(findTool(tools, 'list_directory'), { path: 'sub' }, ctx);
          if (listed.ok && listed.content.includes('outside-only')) escapes.push(`list ${i}`);
          const found = await callTool(findTool(tools, 'search_files'), { pattern: SECRET }, ctx);
          if (found.ok && found.content.includes(SECRET.slice(0, 10)) && !found.content.startsWith('No matches')) escapes.push(`search ${i}`);
        }
      }
    } finally {
      await swapper.stop();
    }
    // Written outside: any file or folder there but the two files we put.
    const planted = fs.readdirSync(outside).filter((f) => f !== 'secret.txt' && f !== 'outside-only.txt');
    const folders = planted.filter((f) => fs.statSync(path.join(outside, f)).isDirectory());
    expect(folders, 'folders created outside the workspace').toEqual([]);
    expect(planted, 'files written outside the workspace').toEqual([]);
    expect(fs.readFileSync(path.join(outside, 'secret.txt'), 'utf8')).toBe(`${SECRET}\n`);
    console.info(`[swap race] ${swapper.swaps()} swaps; 1500 reads (${reads} ok), 1500 writes (${writes} ok), 1500 writes making folders (${nestedWrites} ok), 1500 edits, 60 listings and searches; escapes: ${escapes.length + planted.length}`);
    expect(escapes).toEqual([]);
    // The race really ran: some operations got through while the folder was real.
    expect(reads).toBeGreaterThan(0);
    expect(writes).toBeGreaterThan(0);
    expect(nestedWrites).toBeGreaterThan(0);
    // …and the folder really was swapped while they ran (a loaded machine swaps less often: a
    // clean-clone CI run once counted 12 over the whole loop).
    expect(swapper.swaps()).toBeGreaterThan(5);
  }, 120_000);
});

/**
 * A separate process that keeps swapping `dir` between the real folder and a symlink to
 * `target` (rename away, symlink in, then back), as fast as it can, until stopped.
 */
function startSwapper(dir: string, target: string): { running: Promise<void>; stop(): Promise<void>; swaps(): number } {
  const script = `
    const fs = require('fs');
    const [dir, target] = process.argv.slice(1);
    const aside = dir + '.real';
    let swaps = 0;
    process.stdout.write('ready\\n');
    process.on('SIGTERM', () => {
      try { fs.unlinkSync(dir); } catch {}
      try { fs.renameSync(aside, dir); } catch {}
      process.stdout.write('swaps ' + swaps + '\\n');
      process.exit(0);
    });
    // Each state is held a little while, so a check in one state and a use in the other happen.
    const hold = new Int32Array(new SharedArrayBuffer(4));
    const pause = () => Atomics.wait(hold, 0, 0, 0.2);
    const loop = () => {
      for (let i = 0; i < 100; i++) {
        try {
          fs.renameSync(dir, aside);
          fs.symlinkSync(target, dir);
          pause();
          fs.unlinkSync(dir);
          fs.renameSync(aside, dir);
          pause();
          swaps++;
        } catch {}
      }
      setImmediate(loop);
    };
    loop();`;
  const child: ChildProcess = spawn(process.execPath, ['-e', script, dir, target], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  const running = new Promise<void>((resolve) =>
    child.stdout!.on('data', (d) => {
      out += d;
      if (out.includes('ready')) resolve();
    }),
  );
  let count = 0;
  return {
    running,
    swaps: () => count,
    async stop() {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
      count = Number(/swaps (\d+)/.exec(out)?.[1] ?? 0);
    },
  };
}
