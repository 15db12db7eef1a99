/**
 * Test support: the whole app (createServices) on a temporary data folder and workspace, driven
 * through its call router as a shell drives it, with a scripted Claude. `restart()` disposes the
 * services and creates them again on the same folders, as a user quitting and reopening does.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CallName, CallOutput, WaypointEvent } from '../../src/shared/contract';
import { createServices, type Services, type ServicesOptions } from '../../src/main/app/services';
import { MemorySecretStore } from '../../src/main/settings/api-key-store';
import { startScriptedServer, type ScriptedServer } from '../scripted-api/server';
import type { Scenario } from '../scripted-api/scenario';

export interface TestApp {
  dir: string;
  dataDir: string;
  workspace: string;
  api: ScriptedServer;
  /** The services now running (a restart makes new ones), for what no call shows. */
  readonly services: Services;
  readonly events: WaypointEvent[];
  call<N extends CallName>(name: N, input: unknown): Promise<CallOutput<N>>;
  /** The router's answer as a shell gets it, refusals included (for tests of what is refused). */
  router(name: string, input: unknown): ReturnType<Services['router']>;
  /** Resolves when the chat's run is idle again after events from `from` on (default: now). */
  idle(sessionId: string, from?: number): Promise<void>;
  /** Resolves with the first event from `from` on that matches. */
  waitFor(match: (event: WaypointEvent) => boolean, from?: number): Promise<WaypointEvent>;
  restart(): Promise<void>;
  close(): Promise<void>;
}

export interface TestAppOptions {
  files?: Record<string, string>;
  settings?: Record<string, unknown>;
  /** Passed to every start of the services (restarts too). */
  services?: Partial<ServicesOptions>;
}

export async function startTestApp(scenario: Scenario, options: TestAppOptions = {}): Promise<TestApp> {
  const dir = await mkdtemp(join(tmpdir(), 'waypoint-app-'));
  const dataDir = join(dir, 'data');
  const workspace = join(dir, 'ws');
  await mkdir(dataDir, { recursive: true });
  await mkdir(workspace);
  for (const [rel, text] of Object.entries(options.files ?? {})) await writeFile(join(workspace, rel), text);
  if (options.settings) await writeFile(join(dataDir, 'settings.json'), JSON.stringify(options.settings));
  const api = await startScriptedServer({ scenario });
  const events: WaypointEvent[] = [];
  let services: Services;
  const open = async () => {
    services = await createServices({
      dataDir,
      workspace,
      shell: 'web',
      secretStore: new MemorySecretStore(),
      env: { ANTHROPIC_API_KEY: 'test-key-app-kit', ANTHROPIC_BASE_URL: api.url },
      ...options.services,
    });
    services.onEvent((e) => events.push(e));
  };
  await open();

  const waitFor = async (match: (event: WaypointEvent) => boolean, from = events.length): Promise<WaypointEvent> => {
    for (const deadline = Date.now() + 15_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 10))) {
      const found = events.slice(from).find(match);
      if (found) return found;
    }
    throw new Error('no matching event within 15 s');
  };
  return {
    dir,
    dataDir,
    workspace,
    api,
    get services() {
      return services;
    },
    events,
    async call(name, input) {
      const result = await services.router(name, input);
      if (!result.ok) throw Object.assign(new Error(result.error.message), { code: result.error.code });
      return result.value as never;
    },
    router: (name, input) => services.router(name, input),
    async idle(sessionId, from = events.length) {
      await waitFor((e) => e.type === 'run_state' && e.sessionId === sessionId && e.state.status === 'idle', from);
    },
    waitFor,
    async restart() {
      await services.dispose();
      await open();
    },
    async close() {
      await services.dispose();
      await api.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
