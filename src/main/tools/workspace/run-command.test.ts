import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { defaultSettings } from '../../../shared/settings';
import { createWorkspaceTools } from './index';
import { expectFail, expectOk, findTool, makeContext, makeWorkspace, type TempWorkspace, parsedInput } from '../../../../test-support/main/test-workspace';
import { callTool } from '../define-tool';

let ws: TempWorkspace;
let tools: ReturnType<typeof createWorkspaceTools>;
const run = (input: unknown, signal?: AbortSignal) => callTool(findTool(tools, 'run_command'), input, makeContext(signal));

beforeEach(() => {
  ws = makeWorkspace();
  tools = createWorkspaceTools(ws.root);
});
afterEach(() => ws.cleanup());

/** Running (not a zombie: an init that doesn't reap may leave killed children as Z entries). */
const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const state = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.[0];
    return state !== 'Z' && state !== 'X';
  } catch {
    return true; // no /proc (macOS): kill(0) succeeding is the answer
  }
};

/**
 * A `sleep` no other process runs (a distinct fraction of a second), so the test can find it
 * among this machine's processes: the pid the command sees ($!) is its own PID namespace's
 * when commands run under bubblewrap (pid-isolation.ts), not one this process can signal.
 */
const distinctSleep = (): string => `30.${String(process.pid).padStart(7, '0')}${Math.floor(Math.random() * 1e6)}`;

function pidRunning(args: string): number | null {
  if (process.platform !== 'linux') return null;
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8') === `sleep\0${args}\0`) return Number(entry);
    } catch {
      // gone meanwhile
    }
  }
  return null;
}

/** Waits for the command to write the pid file, then answers the sleep's pid as this process sees it. */
async function readPid(file: string, sleepArgs: string): Promise<number> {
  for (let i = 0; i < 100; i++) {
    const text = fs.existsSync(file) ? fs.readFileSync(file, 'utf8').trim() : '';
    if (text) return pidRunning(sleepArgs) ?? Number(text);
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('child never wrote its pid');
}

describe('run_command', () => {
  it('runs in the workspace and reports exit code, stdout and stderr', async () => {
    const text = expectOk(await run({ command: 'pwd; echo out; echo err >&2; exit 3' }));
    expect(text).toContain(`--- stdout ---\n${fs.realpathSync(ws.root)}\nout`);
    expect(text).toContain('--- stderr ---\nerr');
    expect(text).toContain('exit code 3');
  });

  it('runs in a confined cwd and refuses escapes and files', async () => {
    fs.mkdirSync(path.join(ws.root, 'sub'));
    expect(expectOk(await run({ command: 'basename "$PWD"', cwd: 'sub' }))).toContain('stdout ---\nsub');
    expect(expectFail(await run({ command: 'ls', cwd: '../' })).kind).toBe('permission');
    expect(expectFail(await run({ command: 'ls', cwd: 'nope' })).kind).toBe('not_found');
    ws.write('f.txt', '');
    expect(expectFail(await run({ command: 'ls', cwd: 'f.txt' })).kind).toBe('invalid_parameter');
  });

  it('keeps the tail of long output with a notice', async () => {
    const text = expectOk(await run({ command: "i=0; while [ $i -lt 5000 ]; do echo \"line $i ..........\"; i=$((i+1)); done" }));
    expect(text).toContain('line 4999');
    expect(text).not.toContain('line 0 ');
    expect(text).toMatch(/earlier bytes not shown; output truncated to the last 30,720 bytes/);
  });

  it('times out, killing the whole process group', async () => {
    const pidFile = path.join(ws.root, 'pid');
    const started = Date.now();
    const nap = distinctSleep();
    const outcome = await run({ command: `sleep ${nap} & echo $! > pid; echo started; wait`, timeout_ms: 500 });
    const error = expectFail(outcome);
    expect(error.kind).toBe('timeout');
    expect(error.message).toContain('timed out');
    expect(error.message).toContain('started');
    expect(Date.now() - started).toBeLessThan(5000);
    // The run is over: on Linux the sleep must be gone from this machine's processes.
    if (process.platform === 'linux') expect(pidRunning(nap)).toBeNull();
    else expect(alive(await readPid(pidFile, nap))).toBe(false);
    expect(fs.readFileSync(pidFile, 'utf8')).toMatch(/^\d+\n$/); // the sleep did start
  });

  it('is stopped by the abort signal, promptly, killing the group', async () => {
    const controller = new AbortController();
    const nap = distinctSleep();
    const pending = run({ command: `sleep ${nap} & echo $! > pid; wait` }, controller.signal);
    const pid = await readPid(path.join(ws.root, 'pid'), nap);
    expect(alive(pid)).toBe(true);
    const stoppedAt = Date.now();
    controller.abort();
    const error = expectFail(await pending);
    expect(error.message).toContain('stopped by the user');
    expect(Date.now() - stoppedAt).toBeLessThan(3000);
    // SIGKILL is delivered at once, but a loaded machine may not have scheduled the process to die yet.
    await expect.poll(() => alive(pid), { timeout: 2000 }).toBe(false);
  });

  it('escalates to SIGKILL when the group ignores SIGTERM', async () => {
    const controller = new AbortController();
    // Ignored signals stay ignored across exec, so the sleep ignores SIGTERM too.
    const nap = distinctSleep();
    const pending = run({ command: `trap '' TERM; sleep ${nap} & echo $! > pid; wait` }, controller.signal);
    const pid = await readPid(path.join(ws.root, 'pid'), nap);
    controller.abort();
    expect(expectFail(await pending).message).toContain('stopped by the user');
    // SIGKILL is delivered at once, but a loaded machine may not have scheduled the process to die yet.
    await expect.poll(() => alive(pid), { timeout: 2000 }).toBe(false);
  });

  it('does not start when already stopped', async () => {
    const controller = new AbortController();
    controller.abort();
    expect(expectFail(await run({ command: 'touch made' }, controller.signal)).message).toContain('stopped');
    expect(fs.existsSync(path.join(ws.root, 'made'))).toBe(false);
  });

  it('validates input', async () => {
    expect(expectFail(await run({ command: '   ' })).kind).toBe('invalid_parameter');
    expect(expectFail(await run({ command: 'ls', timeout_ms: 700_000 })).message).toContain('timeout_ms');
  });

  it('needs approval unless auto-approved; approval rules see the exact command line', () => {
    const tool = findTool(tools, 'run_command');
    const settings = defaultSettings();
    expect(tool.needsApproval(parsedInput(tool, { command: 'rm -rf build' }), settings)).toBe(true);
    expect(tool.needsApproval(parsedInput(tool, { command: 'rm -rf build' }), { ...settings, autoApproveCommands: true })).toBe(false);
    // What a rule is matched on (tools/approval-rules.ts): the command as given, never a guess.
    expect(tool.ruleSubject!(parsedInput(tool, { command: 'npm  test', cwd: 'pkg' }))).toEqual({ kind: 'command', command: 'npm  test' });
    // Input no rule can cover never reaches ruleSubject: it is refused when parsed.
    expect(tool.parse({ nonsense: 1 }).ok).toBe(false);
  });

  it('describes the dry run and summarizes', () => {
    const tool = findTool(tools, 'run_command');
    expect(tool.describeDryRun(parsedInput(tool, { command: 'npm test', cwd: 'pkg' }))).toBe('Would run: npm test\nin pkg (time limit 120.0 s)');
    expect(tool.summarize(parsedInput(tool, { command: 'npm test' }))).toBe('Run `npm test`');
  });
});
