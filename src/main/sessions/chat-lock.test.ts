import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ChatLocks, describeOwner, liveWriter, lockPathFor, type LockOwner } from './chat-lock';

let dir: string;
const locks: ChatLocks[] = [];
const make = (holder: string) => {
  const set = new ChatLocks(dir, holder);
  locks.push(set);
  return set;
};
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'waypoint-lock-'));
});
afterEach(() => {
  for (const set of locks.splice(0)) set.dispose();
  rmSync(dir, { recursive: true, force: true });
});

/** A pid that certainly ran and certainly ended: a process we started and waited for. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(child.stdout);
}

function plant(id: string, owner: Partial<LockOwner>): void {
  const full: LockOwner = { pid: process.pid, host: hostname(), token: 'planted', holder: 'waypoint run', since: new Date().toISOString(), ...owner };
  writeFileSync(lockPathFor(dir, id), JSON.stringify(full));
}

describe('chat locks', () => {
  it('one holder at a time; the other is told who holds it; released, it is free again', () => {
    const app = make('the Waypoint web shell');
    const mcp = make('waypoint mcp');
    expect(app.acquire('chat-1')).toEqual({ ok: true, tookOverFrom: null });
    expect(app.acquire('chat-1')).toEqual({ ok: true, tookOverFrom: null }); // ours already
    const refused = mcp.acquire('chat-1');
    expect(refused.ok).toBe(false);
    expect(!refused.ok && refused.owner && describeOwner(refused.owner)).toBe(`the Waypoint web shell, pid ${process.pid}`);
    expect(liveWriter(dir, 'chat-1')?.token).toBe(app.owner.token);
    app.release('chat-1');
    expect(existsSync(lockPathFor(dir, 'chat-1'))).toBe(false);
    expect(mcp.acquire('chat-1').ok).toBe(true);
  });

  it('a lock whose process is gone is taken over, naming the process that left it', () => {
    const pid = deadPid();
    plant('chat-2', { pid, holder: 'waypoint mcp', token: 'crashed' });
    expect(liveWriter(dir, 'chat-2')).toBeNull();
    const result = make('the Waypoint app').acquire('chat-2');
    expect(result).toMatchObject({ ok: true, tookOverFrom: { pid, holder: 'waypoint mcp' } });
    expect(JSON.parse(readFileSync(lockPathFor(dir, 'chat-2'), 'utf8'))).toMatchObject({ pid: process.pid, holder: 'the Waypoint app' });
  });

  it('our own pid with a token no live lock set has is stale (a reused pid, or a set disposed without releasing)', () => {
    plant('chat-3', { token: 'not-ours' });
    expect(make('x').acquire('chat-3')).toMatchObject({ ok: true, tookOverFrom: { token: 'not-ours' } });
  });

  it('another machine\'s lock is respected: its process cannot be checked from here', () => {
    plant('chat-4', { pid: deadPid(), host: `${hostname()}-elsewhere` });
    expect(make('x').acquire('chat-4')).toMatchObject({ ok: false, owner: { host: `${hostname()}-elsewhere` } });
  });

  it('an unreadable lock is a writer mid-way for a few seconds, then garbage', () => {
    writeFileSync(lockPathFor(dir, 'chat-5'), '');
    expect(make('x').acquire('chat-5')).toEqual({ ok: false, owner: null });
    const old = new Date(Date.now() - 60_000);
    utimesSync(lockPathFor(dir, 'chat-5'), old, old);
    expect(make('y').acquire('chat-5')).toEqual({ ok: true, tookOverFrom: null });
  });

  it('release leaves a lock someone else took over alone', () => {
    const first = make('first');
    first.acquire('chat-6');
    plant('chat-6', { token: 'someone-else', pid: 1 });
    first.release('chat-6');
    expect(existsSync(lockPathFor(dir, 'chat-6'))).toBe(true);
  });

  it('processes racing to take over one stale lock: exactly one wins', async () => {
    plant('chat-7', { pid: deadPid(), token: 'dead' });
    const racer = `
      import { ChatLocks } from ${JSON.stringify(resolve('src/main/sessions/chat-lock.ts'))};
      const set = new ChatLocks(process.argv.at(-1), 'racer ' + process.pid);
      const result = set.acquire('chat-7');
      process.stdout.write(JSON.stringify({ ok: result.ok }));
      // Hold it until told to go, so a loser cannot mistake a released lock for a free one.
      process.stdin.once('data', () => process.exit(0));
    `;
    const racers = Array.from({ length: 4 }, () => spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', racer, dir], { stdio: ['pipe', 'pipe', 'inherit'] }));
    const results = await Promise.all(
      racers.map(
        (child) =>
          new Promise<{ ok: boolean }>((ok) => {
            let out = '';
            child.stdout!.on('data', (d: Buffer) => {
              out += d.toString();
              if (out.endsWith('}')) ok(JSON.parse(out) as { ok: boolean });
            });
          }),
      ),
    );
    for (const child of racers) child.stdin!.write('go');
    await Promise.all(racers.map((child) => new Promise((r) => child.once('exit', r))));
    expect(results.filter((r) => r.ok)).toHaveLength(1);
  }, 60_000);
});
