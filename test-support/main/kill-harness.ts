/**
 * Kill-test support (kill.test.ts, bench/persistence.ts): the BUILT web shell as a user runs it,
 * driven over its WebSocket like the renderer, and SIGKILLed at a chosen moment.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type WebSocket from 'ws';
import type { WaypointEvent, WsServerFrame } from '../../src/shared/contract';
import { readLog, type LogReadResult } from '../../src/main/store/log-reader';
import { replay, type ReplayedChat } from '../../src/main/store/replay';
import { restoreChat } from '../../src/main/store/restore-chat';
import { frameCollector, resultFor, wsConnect } from './web-test-client';

export const WEB_JS = resolve('out/main/web.js');

export function requireBuiltShell(): void {
  if (!existsSync(WEB_JS)) throw new Error(`${WEB_JS} is missing: build first with "npx electron-vite build" (npm test builds before it runs the tests).`);
}

/**
 * A private copy of the built main process, so a rebuild of out/ during a long kill run cannot
 * pull the file from under it. Dependencies resolve through a node_modules link. Returns the
 * copy's web.js and a cleanup.
 */
export function snapshotBuild(): { webJs: string; dispose(): void } {
  requireBuiltShell();
  const dir = mkdtempSync(join(tmpdir(), 'waypoint-build-'));
  cpSync(resolve('out/main'), join(dir, 'out', 'main'), { recursive: true });
  symlinkSync(resolve('node_modules'), join(dir, 'node_modules'), 'dir');
  return { webJs: join(dir, 'out', 'main', 'web.js'), dispose: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Every shell launched and not yet reaped, so a failing test can still stop them all. */
const live = new Set<ChildProcess>();

export function killAllLaunched(): void {
  for (const child of live) killWithWorker(child);
  live.clear();
}

/**
 * `node web.js` with a key in its environment starts the shell again without it and waits
 * (secret-handoff.ts): the shell is that child. A kill kills both at once, as a crash of the app
 * would, rather than leave the child to notice its launcher is gone.
 */
function killWithWorker(child: ChildProcess): number[] {
  const pid = child.pid;
  let workers: number[] = [];
  try {
    if (pid !== undefined) workers = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    // no /proc, or already gone
  }
  child.kill('SIGKILL');
  for (const worker of workers) {
    try {
      process.kill(worker, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  return workers;
}

/** Gone, or a zombie nobody reaps (a container's init may not). */
function dead(pid: number): boolean {
  try {
    const state = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.[0];
    return state === 'Z' || state === 'X';
  } catch {
    return true;
  }
}

export interface RunningShell {
  child: ChildProcess;
  socket: WebSocket;
  events: WaypointEvent[];
  call(name: string, input: unknown): Promise<unknown>;
  output(): string;
}

export interface LaunchExtras {
  /** More environment for the shell. */
  env?: Record<string, string>;
  /** More command-line options. */
  args?: string[];
  /** How the shell is started (default: node web.js). */
  command?: string[];
}

export async function launch(dataDir: string, workspace: string, baseURL: string, apiKey: string, webJs = WEB_JS, extras: LaunchExtras = {}): Promise<RunningShell> {
  const env: NodeJS.ProcessEnv = { ...process.env, ANTHROPIC_BASE_URL: baseURL, ANTHROPIC_API_KEY: apiKey, ...extras.env };
  delete env.WAYPOINT_PORT;
  const [file, ...pre] = extras.command ?? [process.execPath, webJs];
  const child = spawn(file!, [...pre, '--port', '0', '--data-dir', dataDir, '--workspace', workspace, ...(extras.args ?? [])], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  live.add(child);
  child.once('exit', () => live.delete(child));
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const url = await new Promise<URL>((ok, fail) => {
    const timer = setTimeout(() => fail(new Error(`web shell did not start:\n${output}`)), 60_000);
    child.stdout!.on('data', () => {
      const match = /(http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        ok(new URL(match[1]!));
      }
    });
    child.once('exit', (code) => fail(new Error(`web shell exited (${code}):\n${output}`)));
  });
  const outcome = await wsConnect(`ws://${url.host}/ws?token=${url.searchParams.get('token')}`, { origin: url.origin });
  if (outcome.kind !== 'open') throw new Error(`WebSocket refused (${outcome.status})`);
  const frames = frameCollector(outcome.socket);
  const events: WaypointEvent[] = [];
  outcome.socket.on('message', (data) => {
    const frame = JSON.parse(String(data)) as WsServerFrame;
    if (frame.kind === 'events') events.push(...frame.events);
  });
  let id = 0;
  return {
    child,
    socket: outcome.socket,
    events,
    output: () => output,
    async call(name, input) {
      const callId = ++id;
      outcome.socket.send(JSON.stringify({ id: callId, call: name, input }));
      const frame = (await frames.next(resultFor(callId), 10_000)) as Extract<WsServerFrame, { kind: 'result' }>;
      if (!frame.result.ok) throw new Error(`${name}: ${frame.result.error.message}`);
      return frame.result.value;
    },
  };
}

export async function kill(shell: RunningShell): Promise<void> {
  shell.socket.terminate();
  if (shell.child.exitCode !== null || shell.child.signalCode !== null) return;
  const exited = new Promise((r) => shell.child.once('exit', r));
  const workers = killWithWorker(shell.child);
  await exited;
  while (!workers.every(dead)) await new Promise((r) => setTimeout(r, 5));
}

export interface CheckedLog {
  id: string;
  read: LogReadResult;
  chat: ReplayedChat;
  /** Problems found (empty when the log is sound). */
  problems: string[];
}

/** Loads every chat log under a data dir the way start-up does, and checks the invariants. */
export function checkLogs(dataDir: string): CheckedLog[] {
  const sessionsDir = join(dataDir, 'sessions');
  if (!existsSync(sessionsDir)) return [];
  return readdirSync(sessionsDir, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => {
      const read = readLog(join(sessionsDir, d.name, 'events.jsonl'));
      const problems: string[] = [];
      const chat = replay(read.records);
      if (!chat) problems.push('no chat could be rebuilt');
      // Only a torn tail is acceptable damage from a kill.
      for (const warning of read.warnings) if (!/torn last line/.test(warning)) problems.push(warning);
      const versions = new Map<string, number>();
      for (const record of read.records) {
        // Another version of the chat shown: its plan may be an earlier version of the same plan.
        if (record.type === 'rewind' && record.planDropped) versions.clear();
        if (record.type !== 'plan') continue;
        const last = versions.get(record.plan.id) ?? 0;
        if (record.version < last) problems.push(`plan ${record.plan.id} went back from v${last} to v${record.version}`);
        versions.set(record.plan.id, record.version);
      }
      if (chat) restoreChat(chat); // must not throw
      return { id: d.name, read, chat: chat!, problems };
    });
}
