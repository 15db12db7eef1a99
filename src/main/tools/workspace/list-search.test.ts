import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createWorkspaceTools } from './index';
import { expectFail, expectOk, findTool, makeContext, makeWorkspace, type TempWorkspace } from '../../../../test-support/main/test-workspace';
import { callTool } from '../define-tool';

let ws: TempWorkspace;
let tools: ReturnType<typeof createWorkspaceTools>;
const ctx = makeContext();
const run = (name: string, input: unknown) => callTool(findTool(tools, name), input, ctx);

beforeEach(() => {
  ws = makeWorkspace();
  tools = createWorkspaceTools(ws.root);
  ws.write('.gitignore', 'node_modules/\n*.log\n');
  ws.write('src/app.ts', 'export const TODO = 1; // todo: rename\n');
  ws.write('src/lib/util.ts', 'export function util() {}\n// TODO later\n');
  ws.write('src/lib/.gitignore', 'generated.ts\n');
  ws.write('src/lib/generated.ts', 'TODO generated\n');
  ws.write('README.md', '# Readme\nNothing todo here.\n');
  ws.write('debug.log', 'TODO in a log\n');
  ws.write('node_modules/dep/index.js', 'TODO in a dependency\n');
  ws.write('.git/config', 'TODO in git\n');
  ws.write('bin/tool', Buffer.from([0, 1, 2, 0x54, 0x4f, 0x44, 0x4f]));
});
afterEach(() => ws.cleanup());

describe('list_directory', () => {
  it('lists a tree with folders marked, honouring .gitignore and skipping .git', async () => {
    fs.symlinkSync('src/app.ts', path.join(ws.root, 'app-link'));
    const text = expectOk(await run('list_directory', {}));
    expect(text).toBe(
      ['Workspace root (depth 2):', 'bin/', '  tool', 'src/', '  lib/', '  app.ts', '.gitignore', 'README.md', 'app-link@'].join('\n'),
    );
  });

  it('lists a subfolder at a chosen depth, applying nested .gitignore', async () => {
    const text = expectOk(await run('list_directory', { path: 'src', depth: 3 }));
    expect(text).toBe(['src/ (depth 3):', 'lib/', '  .gitignore', '  util.ts', 'app.ts'].join('\n'));
  });

  it('caps long listings', async () => {
    for (let i = 0; i < 520; i++) ws.write(`many/f${String(i).padStart(3, '0')}.txt`, '');
    const text = expectOk(await run('list_directory', { path: 'many' }));
    expect(text.split('\n')).toHaveLength(1 + 500 + 1);
    expect(text).toContain('20 more entries not shown');
  });

  it('fails clearly on a file, a missing folder, an escape and bad depth', async () => {
    expect(expectFail(await run('list_directory', { path: 'README.md' })).message).toContain('read_file');
    expect(expectFail(await run('list_directory', { path: 'nope' })).kind).toBe('not_found');
    expect(expectFail(await run('list_directory', { path: '../' })).kind).toBe('permission');
    expect(expectFail(await run('list_directory', { depth: 0 })).kind).toBe('invalid_parameter');
  });
});

describe('search_files', () => {
  it('finds text case-insensitively, skipping ignored, .git and binary files', async () => {
    const text = expectOk(await run('search_files', { pattern: 'todo' }));
    expect(text).toBe(
      ['3 matches in the workspace:', 'src/lib/util.ts:2: // TODO later', 'src/app.ts:1: export const TODO = 1; // todo: rename', 'README.md:2: Nothing todo here.'].join('\n'),
    );
  });

  it('respects case_sensitive, regex and path', async () => {
    const exact = expectOk(await run('search_files', { pattern: 'TODO', case_sensitive: true }));
    expect(exact).toContain('2 matches');
    expect(exact).not.toContain('README');
    const regex = expectOk(await run('search_files', { pattern: 'export (const|function) \\w+', regex: true, path: 'src/lib' }));
    expect(regex).toBe('1 match in src/lib:\nsrc/lib/util.ts:1: export function util() {}');
    const file = expectOk(await run('search_files', { pattern: 'readme', path: 'README.md' }));
    expect(file).toContain('README.md:1: # Readme');
  });

  it('caps results and says how many more there are', async () => {
    ws.write('big.txt', Array.from({ length: 30 }, (_, i) => `needle ${i}`).join('\n'));
    const text = expectOk(await run('search_files', { pattern: 'needle', max_results: 10 }));
    expect(text.split('\n').filter((l) => l.startsWith('big.txt:'))).toHaveLength(10);
    expect(text).toContain('20 more matches not shown');
  });

  it('reports no matches truthfully', async () => {
    expect(expectOk(await run('search_files', { pattern: 'zzz-not-there' }))).toMatch(/^No matches for "zzz-not-there" in the workspace \(\d+ files searched\)\.$/);
  });

  it('rejects an invalid regex and escapes', async () => {
    const error = expectFail(await run('search_files', { pattern: '(unclosed', regex: true }));
    expect(error.kind).toBe('invalid_parameter');
    expect(error.message).toContain('Invalid regular expression');
    expect(expectOk(await run('search_files', { pattern: '(unclosed' }))).toContain('No matches');
    expect(expectFail(await run('search_files', { pattern: 'x', path: '/etc' })).kind).toBe('permission');
    expect(expectFail(await run('search_files', { pattern: '' })).kind).toBe('invalid_parameter');
  });
});
