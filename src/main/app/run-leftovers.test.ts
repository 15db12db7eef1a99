import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterEach, describe, expect, it } from 'vitest';
import { startScriptedServer, type ScriptedServer } from '../../../test-support/scripted-api/server';
import type { ScriptedTurn } from '../../../test-support/scripted-api/scenario';
import type { WaypointEvent } from '../../shared/contract';
import { MemorySecretStore } from '../sessions/api-key-store';
import { createServices, type Services } from './services';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const TOOL_TURNS = 2;
const MESSAGES = 20;

let dir: string;
let api: ScriptedServer;
let services: Services | undefined;
const realFetch = globalThis.fetch;

afterEach(async () => {
  globalThis.fetch = realFetch;
  await services?.dispose();
  await api?.close();
  await rm(dir, { recursive: true, force: true });
});

/** Full GCs with a task between them: some objects are freed only after a finalizer ran. */
async function settle(): Promise<void> {
  for (let i = 0; i < 3; i++) {
    await new Promise((r) => setTimeout(r, 10));
    gc();
  }
}

/** Issue 15 item 8: main's memory stays flat over a long run. */
describe('a long chat run through the whole app', () => {
  it('lets every request go once it is answered: its abort signal, its response and the SDK stream holding it', async () => {
    dir = await mkdtemp(join(tmpdir(), 'waypoint-leftovers-'));
    const turns: ScriptedTurn[] = [];
    for (let i = 0; i < MESSAGES; i++) {
      for (let t = 0; t < TOOL_TURNS; t++) turns.push({ kind: 'tool_use', calls: [{ name: 'list_directory', input: { path: '.' } }], delayMs: 0, chunkChars: 100_000 });
      turns.push({ kind: 'text', text: `Done ${i}.`, delayMs: 0, chunkChars: 100_000 });
    }
    api = await startScriptedServer({ scenario: { name: 'long run', turns, onExhausted: 'error' } });
    // The SDK takes the global fetch for each run's client: watch what each request leaves, then pass it on unchanged.
    const requests: { signal: WeakRef<AbortSignal>; response?: WeakRef<Response> }[] = [];
    globalThis.fetch = async (input, init) => {
      const request: (typeof requests)[number] = { signal: new WeakRef(init!.signal!) };
      requests.push(request);
      const response = await realFetch(input, init);
      request.response = new WeakRef(response);
      return response;
    };
    services = await createServices({
      dataDir: join(dir, 'data'),
      workspace: dir,
      shell: 'web',
      secretStore: new MemorySecretStore(),
      env: { ANTHROPIC_API_KEY: 'sk-ant-env-key-123', ANTHROPIC_BASE_URL: api.url },
    });
    let idle = 0;
    services.onEvent((e: WaypointEvent) => {
      if (e.type === 'run_state' && e.state.status === 'idle') idle++;
    });
    const created = await services.router('newSession', {});
    if (!created.ok) throw new Error(created.error.message);
    const sessionId = (created.value as { id: string }).id;
    for (let i = 0; i < MESSAGES; i++) {
      const before = idle;
      expect(await services.router('sendMessage', { sessionId, text: `Request ${i}` })).toMatchObject({ ok: true });
      while (idle === before) await new Promise((r) => setTimeout(r, 5));
    }
    const answered = requests.filter((r) => r.response);
    expect(answered.length).toBeGreaterThanOrEqual(MESSAGES * (TOOL_TURNS + 1));

    await settle();
    const kept = answered.map((r, i) => ({ request: i, signal: !!r.signal.deref(), response: !!r.response!.deref() })).filter((r) => r.signal || r.response);
    expect(kept).toEqual([]);
  }, 60_000);
});
