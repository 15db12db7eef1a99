import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AtomicFileWriter, writeFileAtomic, writeFileAtomicSync } from './atomic-write';

const dirs: string[] = [];
const folder = (): string => {
  const dir = mkdtempSync(join(tmpdir(), 'atomic-write-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('writeFileAtomic', () => {
  it('replaces a file whole and leaves no temp file behind', async () => {
    const dir = folder();
    const file = join(dir, 'settings.json');
    writeFileSync(file, 'old');
    await writeFileAtomic(file, 'new', { mode: 0o600 });
    expect(readFileSync(file, 'utf8')).toBe('new');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readdirSync(dir)).toEqual(['settings.json']);
  });

  it('writes bytes as given', async () => {
    const file = join(folder(), 'blob');
    await writeFileAtomic(file, Uint8Array.from([0, 255, 10]));
    expect([...readFileSync(file)]).toEqual([0, 255, 10]);
  });

  it('fails with the target untouched and no temp file when the rename cannot happen', async () => {
    const dir = folder();
    // A folder where the file should go: rename refuses to put a file over it.
    const target = join(dir, 'taken');
    writeFileSync(join(dir, 'keep'), 'kept');
    mkdirSync(target);
    await expect(writeFileAtomic(target, 'new')).rejects.toThrow();
    expect(readdirSync(dir).sort()).toEqual(['keep', 'taken']);
    expect(readFileSync(join(dir, 'keep'), 'utf8')).toBe('kept');
  });
});

describe('writeFileAtomicSync', () => {
  it('replaces a file whole with the mode asked for', () => {
    const dir = folder();
    const file = join(dir, '.api-key');
    writeFileAtomicSync(file, Buffer.from('secret'), { mode: 0o600 });
    writeFileAtomicSync(file, 'secret 2', { mode: 0o600 });
    expect(readFileSync(file, 'utf8')).toBe('secret 2');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readdirSync(dir)).toEqual(['.api-key']);
  });
});

describe('AtomicFileWriter', () => {
  it('creates the folder and lands the last of overlapping writes to one path', async () => {
    const file = join(folder(), 'plans', 'WBS.md');
    const writer = new AtomicFileWriter();
    await Promise.all(Array.from({ length: 20 }, (_, i) => writer.write(file, `version ${i}`)));
    expect(readFileSync(file, 'utf8')).toBe('version 19');
  });
});
