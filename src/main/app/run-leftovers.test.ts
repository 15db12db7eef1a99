import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test-support/main/app-test-kit';
import type { ScriptedTurn } from '../../../test-support/scripted-api/scenario';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const TOOL_TURNS = 2;
const MESSAGES = 20;

let app: TestApp | undefined;
const realFetch = globalThis.fetch;

afterEach(async () => {
  globalThis.fetch = realFetch;
  await app?.close();
  app = undefined;
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
    const turns: ScriptedTurn[] = [];
    for (let i = 0; i < MESSAGES; i++) {
      for (let t = 0; t < TOOL_TURNS; t++) turns.push({ kind: 'tool_use', calls: [{ name: 'list_directory', input: { path: '.' } }], delayMs: 0, chunkChars: 100_000 });
      turns.push({ kind: 'text', text: `Done ${i}.`, delayMs: 0, chunkChars: 100_000 });
    }
    // The SDK takes the global fetch for each run's client: watch what each request leaves, then pass it on unchanged.
    const requests: { signal: WeakRef<AbortSignal>; response?: WeakRef<Response> }[] = [];
    globalThis.fetch = async (input, init) => {
      const request: (typeof requests)[number] = { signal: new WeakRef(init!.signal!) };
      requests.push(request);
      const response = await realFetch(input, init);
      request.response = new WeakRef(response);
      return response;
    };
    app = await startTestApp({ name: 'long run', turns, onExhausted: 'error' });
    const { id: sessionId } = await app.call('newSession', {});
    for (let i = 0; i < MESSAGES; i++) {
      const from = app.events.length;
      await app.call('sendMessage', { sessionId, text: `Request ${i}` });
      await app.idle(sessionId, from);
    }
    const answered = requests.filter((r) => r.response);
    expect(answered.length).toBeGreaterThanOrEqual(MESSAGES * (TOOL_TURNS + 1));

    await settle();
    const kept = answered.map((r, i) => ({ request: i, signal: !!r.signal.deref(), response: !!r.response!.deref() })).filter((r) => r.signal || r.response);
    expect(kept).toEqual([]);
  }, 60_000);
});
