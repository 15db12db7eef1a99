/**
 * Test support for the command line (`waypoint run`, `waypoint mcp`): the BUILT out/main/cli.js
 * run as a user runs it, in a child process, with its own data folder and environment.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

export const CLI_JS = resolve('out/main/cli.js');

export function requireBuiltCli(): void {
  if (!existsSync(CLI_JS)) throw new Error(`${CLI_JS} is missing: build first with "npx electron-vite build" (npm test builds before it runs the tests).`);
}

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface RunningCli {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** Resolves when the output so far matches. */
  waitFor(pattern: RegExp, stream?: 'stdout' | 'stderr', timeoutMs?: number): Promise<void>;
  done: Promise<CliResult>;
}

/** The environment a run gets: the scripted server, a test key, fast API retries; nothing else of ours leaks in. */
export function cliEnv(baseURL: string | null, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, WAYPOINT_API_RETRY_BASE_MS: '5', WAYPOINT_API_RETRY_MAX_ATTEMPTS: '1', ...extra };
  for (const name of ['WAYPOINT_DATA_DIR', 'WAYPOINT_WORKSPACE', 'WAYPOINT_PORT', 'ANTHROPIC_API_KEY', 'ANTHROPIC_BASE_URL', 'NO_COLOR', 'FORCE_COLOR']) {
    if (!(name in extra)) delete env[name];
  }
  if (baseURL) {
    env.ANTHROPIC_BASE_URL = baseURL;
    env.ANTHROPIC_API_KEY ??= 'sk-ant-test-cli-key';
  }
  return env;
}

const live = new Set<ChildProcess>();

export function killAllCli(): void {
  for (const child of live) child.kill('SIGKILL');
  live.clear();
}

export function startCli(args: string[], env: NodeJS.ProcessEnv, command: string[] = [process.execPath, CLI_JS]): RunningCli {
  const [file, ...pre] = command;
  const child = spawn(file!, [...pre, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  live.add(child);
  let stdout = '';
  let stderr = '';
  const waiters = new Set<() => void>();
  const poke = () => waiters.forEach((w) => w());
  // Decoded across chunks, so a character split between two ("→", "…") stays whole.
  child.stdout!.setEncoding('utf8');
  child.stderr!.setEncoding('utf8');
  child.stdout!.on('data', (d: string) => {
    stdout += d;
    poke();
  });
  child.stderr!.on('data', (d: string) => {
    stderr += d;
    poke();
  });
  const done = new Promise<CliResult>((resolveDone) => {
    child.once('close', (code, signal) => {
      live.delete(child);
      poke();
      resolveDone({ code, signal, stdout, stderr });
    });
  });
  return {
    child,
    stdout: () => stdout,
    stderr: () => stderr,
    done,
    waitFor(pattern, stream = 'stdout', timeoutMs = 20_000) {
      return new Promise<void>((ok, fail) => {
        const check = () => {
          if (pattern.test(stream === 'stdout' ? stdout : stderr)) {
            waiters.delete(check);
            clearTimeout(timer);
            ok();
          } else if (child.exitCode !== null || child.signalCode !== null) {
            waiters.delete(check);
            clearTimeout(timer);
            fail(new Error(`the command ended before ${pattern} appeared.\nstdout:\n${stdout}\nstderr:\n${stderr}`));
          }
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          fail(new Error(`${pattern} did not appear in time.\nstdout:\n${stdout}\nstderr:\n${stderr}`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
  };
}

/** Runs the command to its end. */
export function runCli(args: string[], env: NodeJS.ProcessEnv): Promise<CliResult> {
  return startCli(args, env).done;
}

export interface McpSession {
  client: Client;
  transport: StdioClientTransport;
  /** The server process (the SDK starts it); resolves `exited` with its exit code. */
  child: ChildProcess;
  exited: Promise<number | null>;
  stderr(): string;
  call(name: string, args?: Record<string, unknown>): Promise<{ text: string; isError: boolean }>;
  close(): Promise<void>;
}

/** `waypoint mcp` with the official MCP SDK's client on its stdio, as Claude Code or Claude Desktop would start it. */
export async function connectMcp(dataDir: string, clientName: string, extraArgs: string[] = []): Promise<McpSession> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI_JS, 'mcp', '--data-dir', dataDir, ...extraArgs],
    env: cliEnv(null) as Record<string, string>,
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
  const client = new Client({ name: clientName, version: '1.0.0' });
  await client.connect(transport);
  // The SDK keeps its child private; a test needs it to see how it ended, or to SIGKILL it.
  const child = (transport as unknown as { _process: ChildProcess })._process;
  const exited = new Promise<number | null>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve(child.exitCode);
    else child.once('exit', (code) => resolve(code));
  });
  return {
    client,
    transport,
    child,
    exited,
    stderr: () => stderr,
    async call(name, args = {}) {
      const result = (await client.callTool({ name, arguments: args })) as { content: Array<{ type: string; text?: string }>; isError?: boolean };
      return { text: result.content.map((c) => c.text ?? '').join('\n'), isError: result.isError === true };
    },
    close: () => client.close(),
  };
}
