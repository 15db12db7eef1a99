import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startScriptedServer, type ScriptedServer } from '../../../test-support/scripted-api/server';
import packageJson from '../../../package.json';
import type { WaypointEvent } from '../../shared/contract';
import { MemorySecretStore } from '../settings/api-key-store';
import { createServices, type AppServices } from './services';

let dir: string;
let api: ScriptedServer;
let services: AppServices;
let events: WaypointEvent[];

async function call(name: string, input: unknown = {}) {
  return services.router(name, input);
}

async function waitFor<T extends WaypointEvent['type']>(type: T, pred: (e: Extract<WaypointEvent, { type: T }>) => boolean = () => true) {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const found = events.find((e): e is Extract<WaypointEvent, { type: T }> => e.type === type && pred(e as never));
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`no ${type} event; got ${events.map((e) => e.type).join(', ')}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'waypoint-services-'));
  api = await startScriptedServer({ scenario: { name: 'echo', turns: [], onExhausted: 'echo' } });
  services = await createServices({
    dataDir: join(dir, 'data'),
    workspace: dir,
    shell: 'web',
    secretStore: new MemorySecretStore(),
    env: { ANTHROPIC_API_KEY: 'sk-ant-env-key-123', ANTHROPIC_BASE_URL: api.url },
  });
  events = [];
  services.onEvent((e) => events.push(e));
});
afterEach(async () => {
  await services.dispose();
  await api.close();
  await rm(dir, { recursive: true, force: true });
});

describe('createServices', () => {
  it('reports the shell, the version from package.json and the workspace', async () => {
    expect(await call('getAppInfo')).toEqual({ ok: true, value: { shell: 'web', version: packageJson.version, workspace: dir } });
  });

  it('saves one setting without resetting the others, announces it, and persists it', async () => {
    await call('setSettings', { patch: { model: 'claude-opus-4-1' } });
    const result = await call('setSettings', { patch: { maxRetries: 4 } });
    expect(result).toMatchObject({ ok: true, value: { settings: { model: 'claude-opus-4-1', maxRetries: 4 }, apiKey: { source: 'env' } } });
    const announced = await waitFor('settings_updated', (e) => e.view.settings.maxRetries === 4);
    expect(announced.view.settings.model).toBe('claude-opus-4-1');
    const onDisk = JSON.parse(await readFile(join(dir, 'data', 'settings.json'), 'utf8')) as Record<string, unknown>;
    expect(onDisk).toMatchObject({ model: 'claude-opus-4-1', maxRetries: 4 });
  });

  it('refuses invalid settings with a clear message and changes nothing', async () => {
    const before = await call('getSettings');
    const bad = await call('setSettings', { patch: { maxRetries: 'lots' } });
    expect(bad).toMatchObject({ ok: false, error: { code: 'invalid_input', message: expect.stringMatching(/maxRetries/) } });
    expect(await call('setSettings', { patch: { apiKey: 'x' } })).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    expect(await call('getSettings')).toEqual(before);
    expect(events.filter((e) => e.type === 'settings_updated')).toEqual([]);
  });

  it('a key typed in Settings wins over the environment and never leaves main', async () => {
    expect(await call('setApiKey', { apiKey: 'sk-ant-typed-456' })).toEqual({ ok: true, value: { hasApiKey: true, source: 'settings' } });
    expect(await call('getSettings')).toMatchObject({ ok: true, value: { apiKey: { hasApiKey: true, source: 'settings' } } });
    expect(await call('setApiKey', { apiKey: null })).toEqual({ ok: true, value: { hasApiKey: true, source: 'env' } });
    expect(await call('setApiKey', { apiKey: 'has space' })).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    const everything = JSON.stringify(events);
    expect(everything).not.toContain('sk-ant-typed-456');
    expect(everything).not.toContain('sk-ant-env-key-123');
    expect(await readFile(join(dir, 'data', 'settings.json'), 'utf8').catch(() => '')).not.toContain('sk-ant');
  });

  it('runs a chat against the real SDK and forwards chat and plan events', async () => {
    api.setScenario({
      name: 'plan',
      turns: [
        { kind: 'tool_use', calls: [{ name: 'update_plan', input: { plan: [{ step: 'Look around', status: 'in_progress' }, { step: 'Report', status: 'pending' }] } }] },
        { kind: 'text', text: 'Planned it.' },
      ],
    });
    await call('setSettings', { patch: { planningStyle: 'checklist' } });
    const created = await call('newSession');
    if (!created.ok) throw new Error(created.error.message);
    const sessionId = (created.value as { id: string }).id;
    expect(await call('sendMessage', { sessionId, text: 'Make a plan' })).toMatchObject({ ok: true });
    const planEvent = await waitFor('plan_updated', (e) => e.sessionId === sessionId);
    expect(planEvent.plan.steps.map((s) => s.title)).toEqual(['Look around', 'Report']);
    await waitFor('run_state', (e) => e.sessionId === sessionId && e.state.status === 'idle');
    expect(await call('getPlan', { sessionId })).toMatchObject({ ok: true, value: { plan: { version: planEvent.plan.version } } });
    const session = await call('getSession', { sessionId });
    expect(JSON.stringify(session)).toContain('Planned it.');
    expect(await call('listSessions')).toMatchObject({ ok: true, value: { sessions: [{ id: sessionId, title: 'Make a plan' }] } });
    expect(api.requests.length).toBe(2);
  });

  it('answers not_found for an unknown chat', async () => {
    expect(await call('getSession', { sessionId: 'nope' })).toMatchObject({ ok: false, error: { code: 'not_found' } });
    expect(await call('getPlan', { sessionId: 'nope' })).toEqual({ ok: true, value: { plan: null } });
  });

  it('stops startup with a clear message when the MCP config file is broken', async () => {
    const path = join(dir, 'mcp.json');
    await writeFile(path, '{"mcpServers": 5}');
    await expect(
      createServices({ dataDir: join(dir, 'other'), workspace: null, shell: 'electron', secretStore: new MemorySecretStore(), env: {}, mcpConfigPath: path }),
    ).rejects.toThrow(/MCP config file .* mcpServers/);
  });

  it('stops forwarding events once disposed (and disposing twice is fine)', async () => {
    await services.dispose();
    await services.dispose();
    const count = events.length;
    await call('setSettings', { patch: { maxRetries: 1 } }).catch(() => undefined);
    expect(events.length).toBe(count);
  });
});

describe('a Settings write the disk refuses', () => {
  it('reaches the caller as words through the call error, not "internal error", and changes nothing', async () => {
    let full = false;
    const writes: string[] = [];
    const faulty = await createServices({
      dataDir: join(dir, 'full-disk'),
      workspace: dir,
      shell: 'web',
      secretStore: new MemorySecretStore(),
      env: { ANTHROPIC_BASE_URL: api.url },
      settingsWriteFile: async (path, content) => {
        if (full) throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
        writes.push(content);
        await writeFile(path, content);
      },
    });
    try {
      expect(await faulty.router('setSettings', { patch: { maxRetries: 4 } })).toMatchObject({ ok: true });
      full = true;
      const refused = await faulty.router('setSettings', { patch: { maxRetries: 6 } });
      expect(refused).toEqual({ ok: false, error: { code: 'internal', message: expect.stringMatching(/^Waypoint could not save Settings: the disk is full \(ENOSPC\)\. The change was not made/) } });
      expect(await faulty.router('getSettings', {})).toMatchObject({ ok: true, value: { settings: { maxRetries: 4 } } });
      expect(writes).toHaveLength(1);
    } finally {
      await faulty.dispose();
    }
  });
});
