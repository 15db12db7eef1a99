import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { decodeSecrets, encodeSecrets, HANDOFF_VARIABLE, startWithoutSecrets } from './secret-handoff';
import { isHandedOver } from './secret-names';

/**
 * Start-up without secrets in the environment, with real processes: the fixture starts as web.js
 * and cli.js do (node --import tsx), so the launcher really starts it again and waits.
 */
const FIXTURE = resolve('test-support/main/handoff-fixture.ts');
const LAUNCH_SH = resolve('bin/waypoint-launch');
const SECRETS = {
  ANTHROPIC_API_KEY: 'sk-ant-test-handoff-4e1d',
  GITHUB_TOKEN: 'ghp-test-handoff-\n"quoted" é',
  AWS_SECRET_ACCESS_KEY: 'aws-test-handoff-90ab',
};

/** The test runner's environment without anything the handoff would move (it may hold some). */
function baseEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env)) if (value !== undefined && !isHandedOver(name) && name !== HANDOFF_VARIABLE) env[name] = value;
  return env;
}

interface Started {
  child: ChildProcess;
  out(): string;
  err(): string;
  line(pattern: RegExp): Promise<string>;
  done: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

const started = new Set<ChildProcess>();
afterEach(() => {
  for (const child of started) child.kill('SIGKILL');
  started.clear();
});

function start(args: string[], env: Record<string, string>, options: { viaSh?: boolean; detached?: boolean } = {}): Started {
  const argv = options.viaSh ? ['sh', LAUNCH_SH, FIXTURE, ...args] : [process.execPath, '--import', 'tsx', FIXTURE, ...args];
  // The sh launcher runs `node SCRIPT`: tsx comes in through NODE_OPTIONS there.
  const fullEnv = options.viaSh ? { ...env, NODE_OPTIONS: '--import tsx' } : env;
  const child = spawn(argv[0]!, argv.slice(1), { env: fullEnv, stdio: ['pipe', 'pipe', 'pipe'], detached: options.detached ?? false });
  started.add(child);
  let out = '';
  let err = '';
  const waiters = new Set<() => void>();
  // Decoded across chunks: a character split between two (é in a secret) stays whole.
  child.stdout!.setEncoding('utf8');
  child.stdout!.on('data', (d: string) => {
    out += d;
    waiters.forEach((w) => w());
  });
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const done = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((ok) => child.once('close', (code, signal) => ok({ code, signal })));
  return {
    child,
    out: () => out,
    err: () => err,
    done,
    line: (pattern) =>
      new Promise<string>((ok, fail) => {
        const check = () => {
          // Only whole lines: a long one (the report holds the environment) may come in several chunks.
          const found = out.split('\n').slice(0, -1).find((l) => pattern.test(l));
          if (found !== undefined) {
            waiters.delete(check);
            ok(found);
          }
        };
        waiters.add(check);
        void done.then(() => fail(new Error(`ended before ${pattern}: ${out}\n${err}`)));
        check();
      }),
  };
}

interface Report {
  pid: number;
  ppid: number;
  environ: string[];
  secrets?: Record<string, string>;
}

const reportOf = async (run: Started): Promise<Report> => JSON.parse(await run.line(/^\{/)) as Report;

function expectClean(report: Report): void {
  const environ = report.environ.join('\n');
  for (const [name, value] of Object.entries(SECRETS)) {
    expect(environ, name).not.toContain(`${name}=`);
    expect(environ, name).not.toContain(value.slice(0, 12));
  }
}

describe('secret handoff at start-up', () => {
  it('with no secret in the environment, nothing starts again', async () => {
    const run = start(['report'], { ...baseEnv(), ANTHROPIC_BASE_URL: 'http://127.0.0.1:9' });
    const report = await reportOf(run);
    expect(report.ppid).toBe(process.pid);
    expect(report.secrets).toEqual({});
    expect((await run.done).code).toBe(0);
  });

  it('node: the started process has no secret in its environment (/proc/self/environ), holds them in memory, and keeps the base URL', async () => {
    const run = start(['report'], { ...baseEnv(), ...SECRETS, ANTHROPIC_BASE_URL: 'http://127.0.0.1:9' });
    const report = await reportOf(run);
    expect(report.ppid).toBe(run.child.pid); // started again, by the launcher we ran
    expect(report.secrets).toEqual(SECRETS);
    if (process.platform === 'linux') {
      expectClean(report);
      expect(report.environ).toContain('ANTHROPIC_BASE_URL=http://127.0.0.1:9');
    }
    expect(await run.done).toEqual({ code: 0, signal: null });
  });

  it('node: the launcher leaves with the exit code of the process it started (0–5, the CLI’s), or its signal', async () => {
    const runs = [0, 1, 2, 3, 4, 5].map((code) => ({ code, run: start(['exit', String(code)], { ...baseEnv(), ...SECRETS }) }));
    for (const { code, run } of runs) {
      expect((await reportOf(run)).ppid).toBe(run.child.pid);
      expect(await run.done).toEqual({ code, signal: null });
    }
    const killed = start(['signal', 'SIGTERM'], { ...baseEnv(), ...SECRETS });
    expect(await killed.done).toEqual({ code: null, signal: 'SIGTERM' });
  });

  it('node: stdin and stdout are the started process’s own (nothing of the launcher in between)', async () => {
    const run = start(['echo'], { ...baseEnv(), ...SECRETS });
    run.child.stdin!.end('line one\nline two\n');
    expect(await run.done).toEqual({ code: 0, signal: null });
    expect(run.out()).toBe('line one\nline two\n');
  });

  it('node: a SIGINT to the launcher, or a Ctrl+C to its whole process group, reaches the started process once', async () => {
    const run = start(['interrupts'], { ...baseEnv(), ...SECRETS }, { detached: true });
    await reportOf(run);
    run.child.kill('SIGINT');
    await run.line(/^SIGINT 1$/);
    // Ctrl+C at a terminal: the signal goes to every process of the foreground group.
    process.kill(-run.child.pid!, 'SIGINT');
    await run.line(/^SIGINT 2$/);
    run.child.stdin!.end();
    expect(await run.done).toEqual({ code: 0, signal: null });
    expect(run.out()).not.toMatch(/SIGINT 3/);
  });

  it('node: a SIGKILLed launcher takes the started process with it', async () => {
    const run = start(['wait'], { ...baseEnv(), ...SECRETS });
    const report = await reportOf(run);
    run.child.kill('SIGKILL');
    await run.done;
    await expect.poll(() => {
      try {
        const state = readFileSync(`/proc/${report.pid}/stat`, 'utf8').split(') ')[1]?.[0];
        return state === 'Z' || state === 'X';
      } catch {
        return true;
      }
    }, { timeout: 10_000 }).toBe(true);
  });

  it('sh launcher (bin/waypoint-launch): exec, so no process stays behind; exactly the names secret-names.ts hands over move', async () => {
    const names = fc.sample(fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,12}$/), { numRuns: 150, seed: 21 });
    const marked = [...new Set([...names, ...names.map((n) => `${n}_TOKEN`), 'ANTHROPIC_BASE_URL', 'NODE_EXTRA_CA_CERTS', 'XDG_SESSION_TYPE', 'DBUS_SESSION_BUS_ADDRESS', 'MY_PASSWORD', 'CLAUDE_X'])].filter((n) => !(n in process.env) && n !== HANDOFF_VARIABLE && !/^(PATH|HOME|NODE_OPTIONS|PWD|SHLVL|_)$/i.test(n));
    const extra = Object.fromEntries(marked.map((n, i) => [n, `value-${i}`]));
    const run = start(['report'], { ...baseEnv(), ...SECRETS, ...extra }, { viaSh: true });
    const report = await reportOf(run);
    expect(report.ppid).toBe(process.pid); // sh exec'd node: nobody waits with the secrets
    expect(report.pid).toBe(run.child.pid);
    expect(report.secrets).toEqual({ ...SECRETS, ...Object.fromEntries(marked.filter(isHandedOver).map((n) => [n, extra[n]])) });
    if (process.platform === 'linux') {
      expectClean(report);
      const kept = new Set(report.environ.map((l) => l.slice(0, l.indexOf('='))));
      for (const name of marked) expect(kept.has(name), name).toBe(!isHandedOver(name));
    }
    expect(await run.done).toEqual({ code: 0, signal: null });
  });

  it('the fd 3 text round-trips any value; a bad handover is refused in words', () => {
    fc.assert(
      fc.property(
        fc.dictionary(fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,10}$/), fc.string({ unit: 'grapheme' })), (secrets) => {
          expect(decodeSecrets(encodeSecrets(secrets))).toEqual(secrets);
        },
      ),
    );
    expect(() => decodeSecrets('ANTHROPIC_API_KEY=sk-ant\n')).toThrow(/not NAME=HEX lines/);
    // The refusal reaches stderr and logs: it says where, never what the line held (a key, raw or hex).
    for (const bad of ['GITHUB_TOKEN=6768702d74657374\nANTHROPIC_API_KEY=sk-ant-test-raw-value-41\n', 'ANTHROPIC_API_KEY=736b2d616e742d746573742d6865782\n']) {
      let message = '';
      try {
        decodeSecrets(bad);
      } catch (error) {
        message = (error as Error).message;
      }
      expect(message).toMatch(/not NAME=HEX lines/);
      expect(message).not.toMatch(/sk-ant|736b2d|ANTHROPIC_API_KEY=/);
    }
    expect(() => startWithoutSecrets({ env: { [HANDOFF_VARIABLE]: 'fd9' } })).toThrow(/not a handover this version knows/);
  });
});
