import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SerialQueue } from './checkpoint-blobs';
import { TurnCheckpoints } from './turn-checkpoints';

// The turns' checkpoints on real files: only files inside the chat's workspace are ever saved or put back.

let holder: string;
let workspace: string;
let outside: string;
let store: TurnCheckpoints;
const data = () => join(holder, 'data');

beforeEach(() => {
  holder = mkdtempSync(join(tmpdir(), 'waypoint-turns-'));
  workspace = join(holder, 'ws');
  outside = join(holder, 'outside');
  mkdirSync(workspace);
  mkdirSync(outside);
  store = new TurnCheckpoints(data(), new SerialQueue());
});
afterEach(() => rmSync(holder, { recursive: true, force: true }));

describe('TurnCheckpoints', () => {
  it('puts a file back as it was before the first of the turns changed it, and removes one they created', async () => {
    writeFileSync(join(workspace, 'a.txt'), 'original');
    await store.capture(workspace, 's', 't1', 'a.txt');
    writeFileSync(join(workspace, 'a.txt'), 'turn 1');
    await store.recordWrite(workspace, 's', 'a.txt');
    await store.capture(workspace, 's', 't2', 'a.txt');
    await store.capture(workspace, 's', 't2', 'b.txt');
    writeFileSync(join(workspace, 'a.txt'), 'turn 2');
    writeFileSync(join(workspace, 'b.txt'), 'new');
    await store.recordWrite(workspace, 's', 'a.txt');
    await store.recordWrite(workspace, 's', 'b.txt');
    await store.recordCommand('s', 't2');

    expect(await store.preview(workspace, 's', ['t2'])).toEqual({
      files: [
        { path: 'a.txt', action: 'restore', changedOutside: false },
        { path: 'b.txt', action: 'delete', changedOutside: false },
      ],
      commands: 1,
    });
    expect(await store.restore(workspace, 's', ['t2'], false)).toEqual({ restored: ['a.txt'], deleted: ['b.txt'], skipped: [] });
    expect(readFileSync(join(workspace, 'a.txt'), 'utf8')).toBe('turn 1');
    expect(existsSync(join(workspace, 'b.txt'))).toBe(false);
    // Turn 1 is still there to put back; turn 2 is gone with its command.
    expect(await store.preview(workspace, 's', ['t1', 't2'])).toEqual({ files: [{ path: 'a.txt', action: 'restore', changedOutside: false }], commands: 0 });
  });

  it('never saves a path that leads outside the workspace (a symlink), so nothing there is put back', async () => {
    writeFileSync(join(outside, 'secret.txt'), 'outside');
    symlinkSync(outside, join(workspace, 'link'));
    await store.capture(workspace, 's', 't1', 'link/secret.txt');
    await store.capture(workspace, 's', 't1', '../outside/secret.txt');
    writeFileSync(join(outside, 'secret.txt'), 'changed');
    expect(await store.preview(workspace, 's', ['t1'])).toEqual({ files: [], commands: 0 });
    expect(await store.restore(workspace, 's', ['t1'], true)).toEqual({ restored: [], deleted: [], skipped: [] });
    expect(readFileSync(join(outside, 'secret.txt'), 'utf8')).toBe('changed');
  });

  it('never touches a path outside the workspace even when the manifest names one (a manifest edited by hand)', async () => {
    writeFileSync(join(outside, 'keep.txt'), 'keep me');
    await store.capture(workspace, 's', 't1', 'a.txt');
    const manifest = join(data(), 'checkpoints', 's', 'turns.manifest.json');
    const parsed = JSON.parse(readFileSync(manifest, 'utf8')) as { files: { root: string; rel: string }[] };
    parsed.files.push({ ...parsed.files[0]!, rel: '../outside/keep.txt' });
    writeFileSync(manifest, JSON.stringify(parsed));
    await store.restore(workspace, 's', ['t1'], true);
    expect(readFileSync(join(outside, 'keep.txt'), 'utf8')).toBe('keep me');
  });

  it('puts nothing back in another folder than the one the change was made in (the chat moved)', async () => {
    const other = join(holder, 'other');
    mkdirSync(other);
    await store.capture(workspace, 's', 't1', 'a.txt');
    writeFileSync(join(workspace, 'a.txt'), 'made');
    writeFileSync(join(other, 'a.txt'), 'another folder');
    expect((await store.preview(other, 's', ['t1'])).files).toEqual([]);
    await store.restore(other, 's', ['t1'], true);
    expect(readFileSync(join(other, 'a.txt'), 'utf8')).toBe('another folder');
  });
});
