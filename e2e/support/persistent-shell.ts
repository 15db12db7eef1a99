import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startWebShell, type WebShell } from './web-shell';

/**
 * A web shell that can be killed and started again on the same --data-dir and --workspace, the
 * way a user restarts the app: nothing but what is on disk carries over.
 */
export interface PersistentShell {
  readonly current: WebShell;
  readonly dataDir: string;
  /** SIGKILL (a crash) or SIGTERM (a normal quit), then a new process on the same folders. */
  restart(how?: 'kill' | 'quit'): Promise<WebShell>;
  dispose(): Promise<void>;
}

export interface PersistentShellOptions {
  /** settings.json written before the first start. */
  settings?: Record<string, unknown>;
  /** Files put in the workspace before the first start. */
  files?: Record<string, string>;
  extraEnv?: Record<string, string>;
}

export async function startPersistentShell(baseURL: string, options: PersistentShellOptions = {}): Promise<PersistentShell> {
  const dataDir = mkdtempSync(join(tmpdir(), 'waypoint-persist-data-'));
  const workspace = mkdtempSync(join(tmpdir(), 'waypoint-persist-ws-'));
  const extraEnv = options.extraEnv ?? {};
  if (options.settings) writeFileSync(join(dataDir, 'settings.json'), JSON.stringify(options.settings));
  for (const [rel, text] of Object.entries(options.files ?? {})) writeFileSync(join(workspace, rel), text);
  const start = () => startWebShell({ baseURL, dataDir, workspace, extraEnv });
  let current = await start();
  const halt = async (how: 'kill' | 'quit') => {
    const child = current.process;
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill(how === 'kill' ? 'SIGKILL' : 'SIGTERM');
    await exited;
  };
  return {
    get current() {
      return current;
    },
    dataDir,
    async restart(how = 'kill') {
      await halt(how);
      current = await start();
      return current;
    },
    async dispose() {
      await current.stop();
      rmSync(dataDir, { recursive: true, force: true });
      rmSync(workspace, { recursive: true, force: true });
    },
  };
}
