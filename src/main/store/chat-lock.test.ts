import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { createServer } from 'node:net';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ChatLocks, describeOwner, liveWriter, lockHolder, lockPathFor, type LockOwner } from './chat-lock';

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
      import { ChatLocks } from ${JSON.stringify(resolve('src/main/store/chat-lock.ts'))};
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

  it('a new lock records pid, host, start time and boot, and an older lock without them is still read', () => {
    make('x').acquire('chat-8');
    const written = JSON.parse(readFileSync(lockPathFor(dir, 'chat-8'), 'utf8')) as LockOwner;
    expect(written).toMatchObject({ pid: process.pid, host: hostname(), holder: 'x' });
    if (process.platform === 'linux') {
      expect(written.startTime).toMatch(/^\d+$/);
      expect(written.bootId).toBe(readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim());
    }
    // A lock from before start times (and boot ids) were recorded: a dead pid is still stale.
    const pid = deadPid();
    writeFileSync(lockPathFor(dir, 'chat-9'), JSON.stringify({ pid, host: hostname(), token: 'old', holder: 'Waypoint', since: '2025-01-01T00:00:00Z' }));
    expect(make('y').acquire('chat-9')).toMatchObject({ ok: true, tookOverFrom: { pid, token: 'old' } });
  });
});

describe.runIf(process.platform === 'linux')('locks whose pid is alive but not theirs', () => {
  it('a lock naming a live unrelated pid (pid 1, a start time it never had) is stale and taken over', () => {
    plant('reused', { pid: 1, startTime: '999999999', bootId: readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim() });
    expect(liveWriter(dir, 'reused')).toBeNull();
    const result = make('the app').acquire('reused');
    expect(result).toMatchObject({ ok: true, tookOverFrom: { pid: 1 }, why: expect.stringContaining('pid 1 is another process now') });
  });

  it('a lock from an earlier boot of this machine is stale, whatever runs under its pid now', () => {
    plant('rebooted', { pid: 1, startTime: readFileSync('/proc/1/stat', 'utf8').split(') ')[1]!.split(' ')[19], bootId: 'a-boot-long-ago' });
    expect(make('the app').acquire('rebooted')).toMatchObject({ ok: true, tookOverFrom: { pid: 1 }, why: 'ran before the computer restarted' });
  });

  it('a live pid with no start time to compare (an older Waypoint) is unverified: refused, and only the user takes it over, once', () => {
    plant('old-live', { pid: 1, token: 'old-live-token', holder: 'the Waypoint app' });
    const app = make('the Waypoint web shell');
    expect(app.acquire('old-live')).toMatchObject({ ok: false, owner: { pid: 1 }, state: { kind: 'unverified', why: 'no_start_time' } });
    // A token that is not the lock's (the lock changed since the user looked) takes nothing.
    expect(app.takeOver('old-live', 'another-token')).toMatchObject({ ok: false });
    expect(app.takeOver('old-live', 'old-live-token')).toMatchObject({ ok: true, tookOverFrom: { pid: 1, holder: 'the Waypoint app' } });
    expect(JSON.parse(readFileSync(lockPathFor(dir, 'old-live'), 'utf8'))).toMatchObject({ token: app.owner.token, tookOverFrom: { pid: 1, holder: 'the Waypoint app' } });
  });

  it('a holder proven alive (a running process with its own start time) is never taken over', async () => {
    const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
    try {
      await new Promise((r) => child.once('spawn', r));
      const startTime = readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1]!.split(' ')[19];
      plant('held', { pid: child.pid!, token: 'child', startTime });
      expect(lockHolder(dir, 'held')?.state).toEqual({ kind: 'alive' });
      expect(make('x').takeOver('held', 'child')).toMatchObject({ ok: false, owner: { pid: child.pid }, state: { kind: 'alive' } });
    } finally {
      child.kill('SIGKILL');
    }
  });
  it('a holder that was killed but not reaped (a zombie: its parent died, and pid 1 of a container reaps nothing) is stale', async () => {
    // `sleep 0` ends at once; its parent became `sleep 30`, which never waits for it: a zombie.
    const parent = spawn('sh', ['-c', 'sleep 0 & echo $!; exec sleep 30'], { stdio: ['ignore', 'pipe', 'ignore'] });
    try {
      const pid = Number(await new Promise<string>((r) => parent.stdout!.once('data', (d: Buffer) => r(d.toString()))));
      const stat = () => readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      const startTime = stat()[19]!;
      while (stat()[0] !== 'Z') await new Promise((r) => setTimeout(r, 10));
      expect(() => process.kill(pid, 0)).not.toThrow();
      plant('zombie', { pid, token: 'zombie', startTime, bootId: readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim() });
      expect(lockHolder(dir, 'zombie')?.state).toEqual({ kind: 'stale', why: 'is no longer running' });
      expect(make('the app').acquire('zombie')).toMatchObject({ ok: true, tookOverFrom: { pid } });
    } finally {
      parent.kill('SIGKILL');
    }
  });
});

describe.runIf(process.platform === 'linux')('a holder reaped while its lock is looked at', () => {
  it('is stale, not unverifiable: signal 0 reached its zombie, then its /proc entry was gone', async () => {
    const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    const pid = child.pid!;
    const startTime = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')[19]!;
    child.kill('SIGKILL');
    await new Promise((r) => child.once('exit', r));
    plant('reaped', { pid, token: 'reaped', startTime, bootId: readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim() });
    // The first look (signal 0) still found the zombie; it was reaped before /proc was read.
    const kill = vi.spyOn(process, 'kill').mockImplementationOnce(() => true);
    try {
      expect(lockHolder(dir, 'reaped')?.state).toEqual({ kind: 'stale', why: 'is no longer running' });
    } finally {
      kill.mockRestore();
    }
  });
});

describe('what sits where a lock should be', () => {
  it('another host\'s lock is unverified; the user may take it over, and the holder that lost it notices', () => {
    const elsewhere = make('the app on the laptop');
    elsewhere.acquire('shared');
    // Make it look like the laptop's: same token (the lock set that holds it), another host.
    const lock = JSON.parse(readFileSync(lockPathFor(dir, 'shared'), 'utf8')) as LockOwner;
    writeFileSync(lockPathFor(dir, 'shared'), JSON.stringify({ ...lock, host: `${hostname()}-laptop` }));
    const here = make('the app here');
    const refused = here.acquire('shared');
    expect(refused).toMatchObject({ ok: false, state: { kind: 'unverified', why: 'other_host' } });
    expect(here.takeOver('shared', lock.token)).toMatchObject({ ok: true, tookOverFrom: { host: `${hostname()}-laptop` } });
    expect(elsewhere.verify('shared')).toMatchObject({ ok: false, by: { token: here.owner.token } });
    expect(elsewhere.holds('shared')).toBe(false);
    expect(here.verify('shared')).toEqual({ ok: true });
  });

  it('a dangling symbolic link is no lock: the link is removed and the chat taken, saying so', () => {
    symlinkSync(join(dir, 'nowhere'), lockPathFor(dir, 'linked'));
    const result = make('x').acquire('linked');
    expect(result).toMatchObject({ ok: true, cleared: expect.stringContaining('symbolic link') });
    expect(JSON.parse(readFileSync(lockPathFor(dir, 'linked'), 'utf8'))).toMatchObject({ pid: process.pid });
  });

  it('a folder where the lock file should be is moved aside with what it holds, and the chat taken', () => {
    mkdirSync(lockPathFor(dir, 'foldered'));
    writeFileSync(join(lockPathFor(dir, 'foldered'), 'keep.txt'), 'someone\'s file');
    const result = make('x').acquire('foldered');
    expect(result).toMatchObject({ ok: true, cleared: expect.stringContaining('was a folder') });
    const aside = readdirSync(dir).find((n) => n.startsWith('foldered.lock.set-aside-'))!;
    expect(readFileSync(join(dir, aside, 'keep.txt'), 'utf8')).toBe('someone\'s file');
  });

  it.runIf(process.platform !== 'win32')('a FIFO or a socket where the lock should be never blocks: it is moved aside', async () => {
    execFileSync('mkfifo', [lockPathFor(dir, 'piped')]);
    expect(liveWriter(dir, 'piped')).toBeNull();
    expect(make('x').acquire('piped')).toMatchObject({ ok: true, cleared: expect.stringContaining('not a regular file') });
    const server = createServer();
    await new Promise<void>((r) => server.listen(lockPathFor(dir, 'socketed'), r));
    try {
      expect(make('y').acquire('socketed')).toMatchObject({ ok: true, cleared: expect.stringContaining('not a regular file') });
    } finally {
      await new Promise((r) => server.close(r));
    }
  });
});
