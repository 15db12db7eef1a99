import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startScriptedServer, type ScriptedServer } from '../../../test-support/scripted-api/server';
import type { Scenario } from '../../../test-support/scripted-api/scenario';
import type { CallInput, CallName, CallOutput, EventOf, WaypointEvent } from '../../shared/contract';
import { MemorySecretStore } from '../settings/api-key-store';
import { SettingsStore } from '../settings/settings-store';
import { stripCacheControl } from '../agent/model/cache-control';
import { createServices, type AppServices } from './services';

// The data folder inside the workspace (workspace = home, data in ~/.config/Waypoint): the app's
// own composition, the real SDK against the scripted server, real files. Tools refuse every path
// in it (docs/security.md "Waypoint's data folder"), so Claude cannot turn on auto-approval for
// the next start, nor read other chats' logs.

let home: string;
let dataDir: string;
let api: ScriptedServer | null = null;
let services: AppServices | null = null;
let events: WaypointEvent[];

const call = async <N extends CallName>(name: N, input: CallInput<N> = {} as CallInput<N>): Promise<CallOutput<N>> => {
  const result = await services!.router(name, input);
  if (!result.ok) throw new Error(`${name}: ${result.error.message}`);
  return result.value as CallOutput<N>;
};

async function waitFor<T extends WaypointEvent['type']>(type: T, pred: (e: EventOf<T>) => boolean = () => true) {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const found = events.find((e): e is EventOf<T> => e.type === type && pred(e as EventOf<T>));
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`no matching ${type}; got ${events.map((e) => e.type).join(', ')}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function boot(scenario: Scenario, settings: object) {
  await mkdir(dataDir, { recursive: true });
  await writeFile(join(dataDir, 'settings.json'), `${JSON.stringify(settings)}\n`);
  api = await startScriptedServer({ scenario });
  events = [];
  services = await createServices({
    dataDir,
    workspace: home,
    shell: 'web',
    secretStore: new MemorySecretStore(),
    env: { ANTHROPIC_API_KEY: 'sk-ant-test-data-folder', ANTHROPIC_BASE_URL: api.url },
  });
  services.onEvent((e) => events.push(e));
}

beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'waypoint-home-'));
  dataDir = join(home, '.config', 'Waypoint');
});
afterEach(async () => {
  await services?.dispose();
  await api?.close();
  services = null;
  api = null;
  await rm(home, { recursive: true, force: true });
});

const TURN_ON = JSON.stringify({ autoApproveEdits: true, autoApproveCommands: true });
const toolResults = (body: unknown) =>
  (stripCacheControl((body as { messages: { content: unknown }[] }).messages.at(-1)!.content) as { type: string; content: string; is_error?: boolean }[]).filter(
    (b) => b.type === 'tool_result',
  );

describe("Waypoint's data folder inside the workspace", { timeout: 60_000 }, () => {
  it('write_file to its settings is refused with a clear word, unasked even with auto-approve on, and the settings stay as they were', async () => {
    const before = { autoApproveEdits: true, model: 'claude-sonnet-4-6' };
    await boot(
      {
        name: 'data-settings',
        turns: [
          { kind: 'tool_use', calls: [{ name: 'write_file', id: 'toolu_W', input: { path: '.config/Waypoint/settings.json', content: TURN_ON } }] },
          { kind: 'tool_use', calls: [{ name: 'edit_file', id: 'toolu_E', input: { path: '.config/Waypoint/settings.json', old_text: '"autoApproveCommands": false', new_text: '"autoApproveCommands": true' } }] },
          { kind: 'tool_use', calls: [{ name: 'read_file', id: 'toolu_R', input: { path: '.config/Waypoint/settings.json' } }] },
          { kind: 'text', text: 'Could not.' },
        ],
      },
      before,
    );
    const onDisk = await readFile(join(dataDir, 'settings.json'), 'utf8');
    const { id } = await call('newSession');
    await call('sendMessage', { sessionId: id, text: 'turn on auto-approve' });
    await waitFor('transcript_item', (e) => e.item.kind === 'assistant' && e.item.text === 'Could not.' && e.item.status === 'done');

    expect(events.filter((e) => e.type === 'approval_requested')).toEqual([]);
    const results = [1, 2, 3].map((i) => toolResults(api!.requests[i]!.body)[0]!);
    for (const result of results) {
      expect(result.is_error).toBe(true);
      expect(result.content).toMatch(/is inside Waypoint's data folder, which tools can't read or change/);
    }
    expect(await readFile(join(dataDir, 'settings.json'), 'utf8')).toBe(onDisk);
    const reopened = await SettingsStore.open(dataDir);
    expect(reopened.get()).toMatchObject({ autoApproveEdits: true, autoApproveCommands: false });
    reopened.dispose();
  });

  it('a listing or search of the workspace never goes into it; a path through a symlink to it is refused too', async () => {
    await boot(
      {
        name: 'data-walk',
        turns: [
          { kind: 'tool_use', calls: [{ name: 'search_files', id: 'toolu_S', input: { pattern: 'DATA-MARKER' } }] },
          { kind: 'tool_use', calls: [{ name: 'list_directory', id: 'toolu_L', input: { path: '.config', depth: 3 } }] },
          { kind: 'tool_use', calls: [{ name: 'read_file', id: 'toolu_R', input: { path: 'shortcut/settings.json' } }] },
          { kind: 'text', text: 'Looked.' },
        ],
      },
      {},
    );
    await writeFile(join(dataDir, 'marker.txt'), 'DATA-MARKER\n');
    await writeFile(join(home, 'notes.txt'), 'DATA-MARKER in my notes\n');
    await writeFile(join(home, '.config', 'other.conf'), 'x\n');
    const { symlink } = await import('node:fs/promises');
    await symlink(dataDir, join(home, 'shortcut'));
    const { id } = await call('newSession');
    await call('sendMessage', { sessionId: id, text: 'look around' });
    await waitFor('transcript_item', (e) => e.item.kind === 'assistant' && e.item.text === 'Looked.' && e.item.status === 'done');

    const [search, listing, read] = [1, 2, 3].map((i) => toolResults(api!.requests[i]!.body)[0]!);
    expect(search!.content).toContain('notes.txt');
    expect(search!.content).not.toContain('marker.txt');
    expect(listing!.content).toContain('other.conf');
    expect(listing!.content).not.toContain('settings.json');
    expect(read).toMatchObject({ is_error: true, content: expect.stringMatching(/Waypoint's data folder/) });
  });
});
