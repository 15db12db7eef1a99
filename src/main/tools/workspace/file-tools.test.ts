import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { defaultSettings } from '../../../shared/settings';
import { createWorkspaceTools } from './index';
import { expectFail, expectOk, findTool, makeContext, makeWorkspace, type TempWorkspace, parsedInput } from '../../../../test-support/main/test-workspace';
import { callTool } from '../define-tool';

let ws: TempWorkspace;
let tools: ReturnType<typeof createWorkspaceTools>;
const ctx = makeContext();

beforeEach(() => {
  ws = makeWorkspace();
  tools = createWorkspaceTools(ws.root);
});
afterEach(() => ws.cleanup());

const run = (name: string, input: unknown) => callTool(findTool(tools, name), input, ctx);

describe('read_file', () => {
  it('returns a small file exactly as on disk', async () => {
    ws.write('src/app.ts', 'const a = 1;\nconst b = 2;\n');
    expect(expectOk(await run('read_file', { path: 'src/app.ts' }))).toBe('const a = 1;\nconst b = 2;\n');
  });

  it('numbers the lines of a range', async () => {
    ws.write('f.txt', ['one', 'two', 'three', 'four'].join('\n'));
    const text = expectOk(await run('read_file', { path: 'f.txt', start_line: 2, end_line: 3 }));
    expect(text).toBe('f.txt (lines 2–3 of 4):\n2\ttwo\n3\tthree');
  });

  it('truncates a long file and says how to read the rest', async () => {
    ws.write('long.txt', Array.from({ length: 2500 }, (_, i) => `line ${i + 1}`).join('\n'));
    const text = expectOk(await run('read_file', { path: 'long.txt' }));
    expect(text).toContain('2000\tline 2000');
    expect(text).not.toContain('line 2001');
    expect(text).toContain('Read the rest with start_line=2001');
    const rest = expectOk(await run('read_file', { path: 'long.txt', start_line: 2001 }));
    expect(rest).toContain('2500\tline 2500');
    expect(rest).not.toContain('Truncated');
  });

  it('truncates by bytes too', async () => {
    ws.write('wide.txt', Array.from({ length: 300 }, () => 'x'.repeat(999)).join('\n'));
    const text = expectOk(await run('read_file', { path: 'wide.txt' }));
    expect(Buffer.byteLength(text)).toBeLessThan(110 * 1024);
    expect(text).toMatch(/Read the rest with start_line=\d+/);
  });

  it('describes a binary file instead of dumping it', async () => {
    ws.write('img.png', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 1, 2, ...new Array(12_337).fill(7)]));
    expect(expectOk(await run('read_file', { path: 'img.png' }))).toBe('img.png: binary file, 12,345 bytes — not shown.');
    ws.write('latin1.txt', Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x20, 0x78]));
    expect(expectOk(await run('read_file', { path: 'latin1.txt' }))).toContain('binary file');
  });

  it('fails clearly: missing, folder, past the end, bad input, escape', async () => {
    ws.write('a.txt', 'a\nb\n');
    expect(expectFail(await run('read_file', { path: 'nope.txt' })).kind).toBe('not_found');
    fs.mkdirSync(path.join(ws.root, 'dir'));
    expect(expectFail(await run('read_file', { path: 'dir' })).message).toContain('list_directory');
    expect(expectFail(await run('read_file', { path: 'a.txt', start_line: 5 })).message).toContain('has only 2 lines');
    const bad = expectFail(await run('read_file', { path: 'a.txt', start_line: 0 }));
    expect(bad.kind).toBe('invalid_parameter');
    expect(bad.message).toContain('start_line');
    expect(expectFail(await run('read_file', { path: 'a.txt', start_line: 3, end_line: 1 })).message).toContain('end_line');
    expect(expectFail(await run('read_file', {})).kind).toBe('invalid_parameter');
    expect(expectFail(await run('read_file', { path: '../x' })).kind).toBe('permission');
  });

  it('summarizes for the transcript card', () => {
    const tool = findTool(tools, 'read_file');
    expect(tool.summarize(parsedInput(tool, { path: 'src/app.ts', start_line: 1, end_line: 80 }))).toBe('Read src/app.ts (lines 1–80)');
    expect(tool.summarize(parsedInput(tool, { path: 'src/app.ts' }))).toBe('Read src/app.ts');
    expect(tool.needsApproval(parsedInput(tool, { path: 'x' }), defaultSettings())).toBe(false);
  });
});

describe('write_file', () => {
  it('creates parent folders and reports created vs overwritten', async () => {
    expect(expectOk(await run('write_file', { path: 'a/b/c.txt', content: 'héllo' }))).toBe('Created a/b/c.txt (6 bytes).');
    expect(fs.readFileSync(path.join(ws.root, 'a/b/c.txt'), 'utf8')).toBe('héllo');
    expect(expectOk(await run('write_file', { path: 'a/b/c.txt', content: 'bye' }))).toBe('Overwrote a/b/c.txt (3 bytes; was 6 bytes).');
    expect(fs.readFileSync(path.join(ws.root, 'a/b/c.txt'), 'utf8')).toBe('bye');
  });

  it('describes the dry run with a diff when overwriting', () => {
    const tool = findTool(tools, 'write_file');
    expect(tool.describeDryRun(parsedInput(tool, { path: 'new.txt', content: 'abc' }))).toBe('Would create new.txt (3 bytes)');
    ws.write('old.txt', 'one\ntwo\n');
    const dry = tool.describeDryRun(parsedInput(tool, { path: 'old.txt', content: 'one\nTWO\n' }));
    expect(dry).toContain('Would overwrite old.txt (8 bytes)');
    expect(dry).toContain('-two');
    expect(dry).toContain('+TWO');
    expect(fs.readFileSync(path.join(ws.root, 'old.txt'), 'utf8')).toBe('one\ntwo\n');
  });

  it('refuses folders, escapes and bad input without changing anything', async () => {
    fs.mkdirSync(path.join(ws.root, 'dir'));
    expect(expectFail(await run('write_file', { path: 'dir', content: 'x' })).kind).toBe('invalid_parameter');
    // The workspace sits in a folder of this test's own, so "../escape.txt" names a file only this
    // test could have made (the system's temp folder may hold an escape.txt of someone else's).
    const outer = makeWorkspace('waypoint-escape-');
    try {
      const inner = path.join(outer.root, 'ws');
      fs.mkdirSync(inner);
      const nested = createWorkspaceTools(inner);
      expect(expectFail(await callTool(findTool(nested, 'write_file'), { path: '../escape.txt', content: 'x' }, ctx)).kind).toBe('permission');
      expect(fs.readdirSync(outer.root)).toEqual(['ws']);
    } finally {
      outer.cleanup();
    }
    expect(expectFail(await run('write_file', { path: 'x.txt' })).message).toContain('content');
    expect(fs.existsSync(path.join(ws.root, 'x.txt'))).toBe(false);
  });

  it('needs approval unless edits are auto-approved', () => {
    const tool = findTool(tools, 'write_file');
    expect(tool.needsApproval(parsedInput(tool, { path: 'a', content: '' }), defaultSettings())).toBe(true);
    expect(tool.needsApproval(parsedInput(tool, { path: 'a', content: '' }), { ...defaultSettings(), autoApproveEdits: true })).toBe(false);
  });
});

describe('edit_file', () => {
  const source = 'function a() {\n  return 1;\n}\n\nfunction b() {\n  return 1;\n}\n';

  it('replaces a unique exact match and returns the diff', async () => {
    ws.write('m.ts', source);
    const text = expectOk(await run('edit_file', { path: 'm.ts', old_text: 'function b() {\n  return 1;', new_text: 'function b() {\n  return 2;' }));
    expect(text).toContain('Edited m.ts at line 5');
    expect(text).toContain('+  return 2;');
    expect(fs.readFileSync(path.join(ws.root, 'm.ts'), 'utf8')).toBe(source.replace('b() {\n  return 1;', 'b() {\n  return 2;'));
  });

  it('inserts replacement text literally ($& is not special)', async () => {
    ws.write('d.txt', 'price: X\n');
    expectOk(await run('edit_file', { path: 'd.txt', old_text: 'X', new_text: '$&$1' }));
    expect(fs.readFileSync(path.join(ws.root, 'd.txt'), 'utf8')).toBe('price: $&$1\n');
  });

  it('reports a non-unique match as conflict with count and lines', async () => {
    ws.write('m.ts', source);
    const error = expectFail(await run('edit_file', { path: 'm.ts', old_text: '  return 1;', new_text: '  return 3;' }));
    expect(error.kind).toBe('conflict');
    expect(error.message).toContain('occurs 2 times');
    expect(error.message).toContain('lines 2, 6');
    expect(fs.readFileSync(path.join(ws.root, 'm.ts'), 'utf8')).toBe(source);
  });

  it('reports missing text as not_found with a near-miss hint', async () => {
    ws.write('m.ts', source);
    const error = expectFail(await run('edit_file', { path: 'm.ts', old_text: 'function a() {\n    return 1;', new_text: 'x' }));
    expect(error.kind).toBe('not_found');
    expect(error.message).toContain('differs only in whitespace');
    expect(error.message).toContain('line 1');
    const other = expectFail(await run('edit_file', { path: 'm.ts', old_text: 'nothing like it', new_text: 'x' }));
    expect(other.message).toContain('Read the file again');
  });

  it('edits CRLF files with LF text', async () => {
    ws.write('w.txt', 'a\r\nb\r\nc\r\n');
    expectOk(await run('edit_file', { path: 'w.txt', old_text: 'a\nb', new_text: 'a\nB' }));
    expect(fs.readFileSync(path.join(ws.root, 'w.txt'), 'utf8')).toBe('a\r\nB\r\nc\r\n');
  });

  it('gives a unified diff as dry run and changes nothing', () => {
    ws.write('m.ts', source);
    const dry = findTool(tools, 'edit_file').describeDryRun(parsedInput(findTool(tools, 'edit_file'), { path: 'm.ts', old_text: 'function a()', new_text: 'function alpha()' }));
    expect(dry).toContain('--- a/m.ts');
    expect(dry).toContain('+++ b/m.ts');
    expect(dry).toContain('-function a() {');
    expect(dry).toContain('+function alpha() {');
    expect(fs.readFileSync(path.join(ws.root, 'm.ts'), 'utf8')).toBe(source);
  });

  it('rejects no-op and malformed edits', async () => {
    ws.write('m.ts', source);
    expect(expectFail(await run('edit_file', { path: 'm.ts', old_text: 'a', new_text: 'a' })).message).toContain('identical');
    expect(expectFail(await run('edit_file', { path: 'm.ts', old_text: '', new_text: 'a' })).kind).toBe('invalid_parameter');
    expect(expectFail(await run('edit_file', { path: 'missing.ts', old_text: 'a', new_text: 'b' })).kind).toBe('not_found');
  });
});
