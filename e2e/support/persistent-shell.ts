import { mkdtempSync, rmSync } from 'node:fs';
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

export async function startPersistentShell(baseURL: string, extraEnv: Record<string, string> = {}): Promise<PersistentShell> {
  const dataDir = mkdtempSync(join(tmpdir(), 'waypoint-persist-data-'));
  const workspace = mkdtempSync(join(tmpdir(), 'waypoint-persist-ws-'));
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
