import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startScriptedServer, type ScriptedServer } from '../../../test-support/scripted-api/server';
import type { WaypointEvent } from '../../shared/contract';
import type { SessionSummary } from '../../shared/transcript';
import { MemorySecretStore } from '../settings/api-key-store';
import { createServices, type AppServices } from './services';

// "Chat model" (issue 23 item 19): the chat's own model, chosen in its header, kept with the chat's
// summary (like a pin) so it survives a restart; the chat's requests use it, other chats keep the
// default in Settings.

let dir: string;
let api: ScriptedServer;
let services: AppServices;
let events: WaypointEvent[];

const start = async () => {
  services = await createServices({
    dataDir: join(dir, 'data'),
    workspace: dir,
    shell: 'web',
    secretStore: new MemorySecretStore(),
    env: { ANTHROPIC_API_KEY: 'sk-ant-test-chat-model', ANTHROPIC_BASE_URL: api.url },
  });
  events = [];
  services.onEvent((e) => events.push(e));
};

async function call<T = unknown>(name: string, input: unknown = {}): Promise<T> {
  const result = await services.router(name, input);
  if (!result.ok) throw new Error(`${name}: ${result.error.message}`);
  return result.value as T;
}

/** Sends and waits for the reply; the model of the request that carried the message (a title request may follow it). */
async function sendAndWait(id: string, text: string): Promise<string> {
  events = [];
  const from = api.requests.length;
  await call('sendMessage', { sessionId: id, text });
  const deadline = Date.now() + 10_000;
  while (!events.some((e) => e.type === 'run_state' && e.sessionId === id && e.state.status === 'idle')) {
    if (Date.now() > deadline) throw new Error('the reply never ended');
    await new Promise((r) => setTimeout(r, 20));
  }
  const sent = api.requests.slice(from).find((r) => JSON.stringify(r.body).includes(text));
  return (sent!.body as { model: string }).model;
}

const summaryOf = async (id: string) => (await call<{ sessions: SessionSummary[] }>('listSessions')).sessions.find((s) => s.id === id);

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'waypoint-chat-model-'));
  api = await startScriptedServer({ scenario: { name: 'echo', turns: [], onExhausted: 'echo' } });
  await start();
});
afterEach(async () => {
  await services.dispose();
  await api.close();
  await rm(dir, { recursive: true, force: true });
});

describe('setSessionModel', () => {
  it("the chat's requests use its model, another chat keeps the default, and the choice survives a restart", async () => {
    const { model: byDefault } = (await call<{ settings: { model: string } }>('getSettings')).settings;
    const { id } = await call<SessionSummary>('newSession');
    const set = await call<SessionSummary>('setSessionModel', { sessionId: id, model: 'claude-haiku-4-5' });
    expect(set).toMatchObject({ id, model: 'claude-haiku-4-5' });
    expect(events.some((e) => e.type === 'session_updated' && e.session.id === id && e.session.model === 'claude-haiku-4-5')).toBe(true);
    expect(await sendAndWait(id, 'Hello from the small model')).toBe('claude-haiku-4-5');
    // (A new chat is another one only once the first has a message: an empty chat is reused.)
    const { id: other } = await call<SessionSummary>('newSession');
    expect(other).not.toBe(id);
    expect(await sendAndWait(other, 'Hello from the default')).toBe(byDefault);

    await services.dispose();
    await start();
    expect((await summaryOf(id))?.model).toBe('claude-haiku-4-5');
    expect(await sendAndWait(id, 'Still the small model?')).toBe('claude-haiku-4-5');

    // null: back to the default in Settings.
    expect((await call<SessionSummary>('setSessionModel', { sessionId: id, model: null })).model).toBeUndefined();
    expect(await sendAndWait(id, 'And now the default')).toBe(byDefault);
  });

  it('refuses a bad request with a clear message and changes nothing', async () => {
    const { id } = await call<SessionSummary>('newSession');
    await call('setSessionModel', { sessionId: id, model: 'claude-haiku-4-5' });
    expect(await services.router('setSessionModel', { sessionId: id, model: '  ' })).toMatchObject({ ok: false, error: { code: 'invalid_input', message: expect.stringMatching(/model is empty/) } });
    expect(await services.router('setSessionModel', { sessionId: id, model: 42 })).toMatchObject({ ok: false, error: { code: 'invalid_input', message: expect.stringMatching(/model/) } });
    expect(await services.router('setSessionModel', { sessionId: id })).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    expect(await services.router('setSessionModel', { sessionId: id, model: 'x'.repeat(201) })).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    expect(await services.router('setSessionModel', { sessionId: 'no-such-chat', model: 'claude-haiku-4-5' })).toMatchObject({ ok: false });
    expect((await summaryOf(id))?.model).toBe('claude-haiku-4-5');
  });
});
