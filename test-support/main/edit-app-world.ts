import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import { createServices, type AppServices } from '../../src/main/app/services';
import { MemorySecretStore } from '../../src/main/settings/api-key-store';
import type { CallName, CallOutput, WaypointEvent } from '../../src/shared/contract';
import { APP_JS, toolsEdit } from '../scenarios/tools-workspace';
import { useCliTestWorld } from './cli-test-world';

/**
 * The whole app (createServices, the web shell's) on a test world whose workspace holds
 * src/app.js and whose scripted server edits it: `start()` opens the app on the same data folder
 * (again after a restart: `quit` the first), with its events and a typed `call` that throws the refusal's words and
 * code. Every app started is disposed after each test.
 */
export function useEditAppWorld(prefix: string) {
  const world = useCliTestWorld(prefix, toolsEdit);
  const open: AppServices[] = [];
  beforeEach(() => {
    mkdirSync(join(world.workspace, 'src'));
    writeFileSync(join(world.workspace, 'src/app.js'), APP_JS);
  });
  afterEach(async () => {
    for (const services of open.splice(0)) await services.dispose();
  });

  async function start() {
    const services = await createServices({
      dataDir: world.dataDir,
      workspace: world.workspace,
      shell: 'web',
      secretStore: new MemorySecretStore(),
      env: { ANTHROPIC_API_KEY: 'sk-ant-test-edit-app', ANTHROPIC_BASE_URL: world.api.url },
    });
    open.push(services);
    const events: WaypointEvent[] = [];
    services.onEvent((event) => events.push(event));
    const call = async <N extends CallName>(name: N, input: unknown): Promise<CallOutput<N>> => {
      const result = await services.router(name, input);
      if (!result.ok) throw Object.assign(new Error(result.error.message), { code: result.error.code });
      return result.value as CallOutput<N>;
    };
    return { services, events, call };
  }

  /** Quits an app started here (the restart's first half): it is not disposed again after the test. */
  async function quit(services: AppServices) {
    open.splice(open.indexOf(services), 1);
    await services.dispose();
  }

  return { world, start, quit };
}
