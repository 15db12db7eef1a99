import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

/** A running web shell process (the built `out/main/web.js`), as a user would start it. */
export interface WebShell {
  url: string;
  dataDir: string;
  /** '' when started without one (workspace: null). */
  workspace: string;
  process: ChildProcess;
  output(): string;
  stop(): Promise<void>;
}

export interface WebShellOptions {
  baseURL: string;
  apiKey?: string | null;
  dataDir?: string;
  /** null starts it as `npm run web` does without --workspace: new chats have no folder. */
  workspace?: string | null;
  extraArgs?: string[];
  extraEnv?: Record<string, string>;
  /** How long to wait for the URL (a data dir of many long chats loads for a while); 15 s by default. */
  startTimeoutMs?: number;
}

const WEB_JS = resolve('out/main/web.js');

export async function startWebShell(options: WebShellOptions): Promise<WebShell> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'waypoint-data-'));
  const workspace = options.workspace === null ? null : (options.workspace ?? mkdtempSync(join(tmpdir(), 'waypoint-ws-')));
  const env: NodeJS.ProcessEnv = { ...process.env, ANTHROPIC_BASE_URL: options.baseURL, ...options.extraEnv };
  delete env.ANTHROPIC_API_KEY;
  if (options.apiKey !== null) env.ANTHROPIC_API_KEY = options.apiKey ?? 'sk-ant-test-e2e-key';
  delete env.WAYPOINT_PORT;
  if (workspace === null) delete env.WAYPOINT_WORKSPACE;

  const child = spawn(
    process.execPath,
    [WEB_JS, '--port', '0', '--data-dir', dataDir, ...(workspace === null ? [] : ['--workspace', workspace]), ...(options.extraArgs ?? [])],
    { env, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));

  const url = await new Promise<string>((resolveUrl, reject) => {
    const timer = setTimeout(() => reject(new Error(`web shell did not print its URL in time:\n${output}`)), options.startTimeoutMs ?? 15_000);
    const onData = () => {
      const match = /(http:\/\/127\.0\.0\.1:\d+\/\?token=[A-Za-z0-9_-]+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolveUrl(match[1]!);
      }
    };
    child.stdout!.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`web shell exited (${code}) before printing its URL:\n${output}`));
    });
  });

  return {
    url,
    dataDir,
    workspace: workspace ?? '',
    process: child,
    output: () => output,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
        await exited;
        clearTimeout(timer);
      }
      if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true });
      if (!options.workspace && workspace) rmSync(workspace, { recursive: true, force: true });
    },
  };
}
