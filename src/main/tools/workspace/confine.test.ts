import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { confine } from './confine';
import { makeWorkspace, type TempWorkspace } from '../../../../test-support/main/test-workspace';

let ws: TempWorkspace;
let outside: string;

beforeAll(() => {
  ws = makeWorkspace();
  outside = fs.mkdtempSync(path.join(os.tmpdir(), 'waypoint-outside-'));
  fs.writeFileSync(path.join(outside, 'secret.txt'), 'secret');
  ws.write('src/app.ts', 'x');
  fs.mkdirSync(path.join(ws.root, 'src/real'), { recursive: true });
  fs.symlinkSync('/etc', path.join(ws.root, 'etc-link'));
  fs.symlinkSync(outside, path.join(ws.root, 'out-dir'));
  fs.symlinkSync(path.join(outside, 'secret.txt'), path.join(ws.root, 'secret-link'));
  fs.symlinkSync(path.join(outside, 'not-yet.txt'), path.join(ws.root, 'dangling-out'));
  fs.symlinkSync('../..', path.join(ws.root, 'src/up'));
  fs.symlinkSync('real', path.join(ws.root, 'src/inside-link'));
  fs.symlinkSync('loop-b', path.join(ws.root, 'loop-a'));
  fs.symlinkSync('loop-a', path.join(ws.root, 'loop-b'));
});

afterAll(() => {
  ws.cleanup();
  fs.rmSync(outside, { recursive: true, force: true });
});

describe('confine refuses every escape', () => {
  const attempts: Array<[string, 'permission' | 'invalid_parameter']> = [
    ['../x', 'permission'],
    ['..', 'permission'],
    ['a/../../x', 'permission'],
    ['src/../../x', 'permission'],
    ['./../x', 'permission'],
    ['/etc/passwd', 'permission'],
    ['/', 'permission'],
    ['etc-link/passwd', 'permission'],
    ['etc-link', 'permission'],
    ['out-dir/secret.txt', 'permission'],
    ['out-dir/new-file.txt', 'permission'],
    ['out-dir/new/deeper/file.txt', 'permission'],
    ['secret-link', 'permission'],
    ['dangling-out', 'permission'],
    ['src/up/etc/passwd', 'permission'],
    ['~/.ssh/id_rsa', 'invalid_parameter'],
    ['~', 'invalid_parameter'],
    ['src/app.ts\0.png', 'invalid_parameter'],
    ['src/\napp.ts', 'invalid_parameter'],
    ['C:\\Windows\\system32', 'invalid_parameter'],
    ['c:/x', 'invalid_parameter'],
    ['\\\\server\\share\\x', 'invalid_parameter'],
    ['//server/share/x', 'invalid_parameter'],
    ['..\\..\\x', 'invalid_parameter'],
    ['%2e%2e/x', 'invalid_parameter'],
    ['%2E%2E%2Fetc%2Fpasswd', 'invalid_parameter'],
    ['file:///etc/passwd', 'invalid_parameter'],
    ['src/CON', 'invalid_parameter'],
    ['nul.txt', 'invalid_parameter'],
    ['loop-a/x', 'invalid_parameter'],
  ];

  it.each(attempts)('refuses %j as %s', (given, kind) => {
    const result = confine(ws.root, given);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.kind).toBe(kind);
    expect(result.error.message).toContain('relative to the workspace root');
  });

  it('refuses an absolute path inside the workspace but suggests the relative form', () => {
    const result = confine(ws.root, path.join(ws.root, 'src/app.ts'));
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.message).toContain('"src/app.ts"');
  });
});

describe('confine accepts paths inside the workspace', () => {
  const real = () => fs.realpathSync(ws.root);
  it.each([
    ['src/app.ts', 'src/app.ts', 'src/app.ts'],
    ['./src/app.ts', 'src/app.ts', 'src/app.ts'],
    ['src/../src/app.ts', 'src/app.ts', 'src/app.ts'],
    ['src/new/dir/file.ts', 'src/new/dir/file.ts', 'src/new/dir/file.ts'],
    ['.', '.', ''],
    ['', '.', ''],
    ['src/inside-link/new.ts', 'src/inside-link/new.ts', 'src/real/new.ts'],
    ['100% done.txt', '100% done.txt', '100% done.txt'],
  ])('%j → %j', (given, rel, canonicalRel) => {
    const result = confine(ws.root, given);
    if (!result.ok) throw new Error(result.error.message);
    expect(result.path.rel).toBe(rel);
    expect(result.path.abs).toBe(path.join(real(), canonicalRel));
  });

  it('reports a missing workspace as unavailable', () => {
    const result = confine(path.join(ws.root, 'no-such-root'), 'x');
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.kind).toBe('unavailable');
  });
});
