import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startScriptedServer, type ScriptedServer } from '../../../test-support/scripted-api/server';
import type { WaypointEvent } from '../../shared/contract';
import type { SessionSummary } from '../../shared/transcript';
import { MemorySecretStore } from '../settings/api-key-store';
import { createServices, type AppServices } from './services';

// "Pin chat" (issue 23): a call through the router like "Rename chat", kept with the chat's
// summary in its log and in the chats index, so the pin is still there after a restart.

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
    env: { ANTHROPIC_API_KEY: 'sk-ant-test-pin', ANTHROPIC_BASE_URL: api.url },
  });
  events = [];
  services.onEvent((e) => events.push(e));
};

async function call<T = unknown>(name: string, input: unknown = {}): Promise<T> {
  const result = await services.router(name, input);
  if (!result.ok) throw new Error(`${name}: ${result.error.message}`);
  return result.value as T;
}

async function chatWithMessage(text: string): Promise<string> {
  const { id } = await call<SessionSummary>('newSession');
  await call('sendMessage', { sessionId: id, text });
  const deadline = Date.now() + 10_000;
  while (!events.some((e) => e.type === 'run_state' && e.sessionId === id && e.state.status === 'idle')) {
    if (Date.now() > deadline) throw new Error('the reply never ended');
    await new Promise((r) => setTimeout(r, 20));
  }
  return id;
}

const pinnedOf = async (id: string) => (await call<{ sessions: SessionSummary[] }>('listSessions')).sessions.find((s) => s.id === id)?.pinned;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'waypoint-pin-'));
  api = await startScriptedServer({ scenario: { name: 'echo', turns: [], onExhausted: 'echo' } });
  await start();
});
afterEach(async () => {
  await services.dispose();
  await api.close();
  await rm(dir, { recursive: true, force: true });
});

describe('pinSession', () => {
  it('pins a chat without moving its date, announces it, and the pin survives a restart', async () => {
    const id = await chatWithMessage('Keep this one at the top');
    const before = (await call<{ sessions: SessionSummary[] }>('listSessions')).sessions.find((s) => s.id === id)!;
    const pinned = await call<SessionSummary>('pinSession', { sessionId: id, pinned: true });
    expect(pinned).toMatchObject({ id, pinned: true, title: before.title, updatedAt: before.updatedAt });
    expect(events.some((e) => e.type === 'session_updated' && e.session.id === id && e.session.pinned === true)).toBe(true);

    await services.dispose();
    await start();
    expect(await pinnedOf(id)).toBe(true);
    const index = JSON.parse(await readFile(join(dir, 'data', 'sessions', 'index.json'), 'utf8')) as { sessions: SessionSummary[] };
    expect(index.sessions.find((s) => s.id === id)?.pinned).toBe(true);

    await call('pinSession', { sessionId: id, pinned: false });
    await services.dispose();
    await start();
    expect(await pinnedOf(id)).toBeFalsy();
  });

  it('refuses a bad request with a clear message and changes nothing', async () => {
    const id = await chatWithMessage('Leave me as I am');
    expect(await services.router('pinSession', { sessionId: id, pinned: 'yes' })).toMatchObject({ ok: false, error: { code: 'invalid_input', message: expect.stringMatching(/pinned/) } });
    expect(await services.router('pinSession', { sessionId: id })).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    expect(await services.router('pinSession', { sessionId: id, pinned: true, extra: 1 })).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    expect(await services.router('pinSession', { sessionId: 'no-such-chat', pinned: true })).toMatchObject({ ok: false });
    expect(await pinnedOf(id)).toBeFalsy();
  });
});
