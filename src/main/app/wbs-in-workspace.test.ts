import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startScriptedServer, type ScriptedServer } from '../../../test-support/scripted-api/server';
import type { WaypointEvent } from '../../shared/contract';
import type { SessionSummary, TranscriptItem } from '../../shared/transcript';
import { MemorySecretStore } from '../settings/api-key-store';
import { createServices, type AppServices } from './services';

// Issue 23 item 4: the WBS style said WBS.md was "in the workspace" and wrote it in the data
// folder. It goes in the chat's workspace; a chat without one keeps it in the data folder, and
// the tool result names the real place either way.

let dir: string;
let api: ScriptedServer;
let services: AppServices;
let events: WaypointEvent[];

const INIT = { problem_statement: 'Plan the garden', project_name: 'Garden' };
const scenario = {
  name: 'wbs',
  turns: [
    { kind: 'tool_use' as const, calls: [{ name: 'planning_initialize', id: 'toolu_i', input: INIT }] },
    { kind: 'text' as const, text: 'Planned.' },
  ],
};

async function call<T = unknown>(name: string, input: unknown = {}): Promise<T> {
  const result = await services.router(name, input);
  if (!result.ok) throw new Error(result.error.message);
  return result.value as T;
}

async function runToIdle(id: string, text: string): Promise<TranscriptItem[]> {
  await call('sendMessage', { sessionId: id, text });
  const deadline = Date.now() + 30_000;
  while (!events.some((e) => e.type === 'run_state' && e.sessionId === id && e.state.status === 'idle')) {
    if (Date.now() > deadline) throw new Error('the run never ended');
    await new Promise((r) => setTimeout(r, 20));
  }
  return (await call<{ transcript: TranscriptItem[] }>('getSession', { sessionId: id })).transcript;
}

async function boot(workspace: string | null) {
  api = await startScriptedServer({ scenario });
  services = await createServices({
    dataDir: join(dir, 'data'),
    workspace,
    shell: 'web',
    secretStore: new MemorySecretStore(),
    env: { ANTHROPIC_API_KEY: 'sk-ant-test-wbs', ANTHROPIC_BASE_URL: api.url },
  });
  events = [];
  services.onEvent((e) => events.push(e));
  await call('setSettings', { patch: { planningStyle: 'wbs' } });
}

/** The outputPath planning_initialize gave Claude (its tool_result in the next request). */
function outputPathSent(): string {
  const second = api.requests[1]!.body as { messages: { role: string; content: unknown }[] };
  const results = second.messages.at(-1)!.content as { content: string }[];
  return (JSON.parse(results[0]!.content) as { outputPath: string }).outputPath;
}

beforeEach(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), 'waypoint-wbs-ws-')));
});
afterEach(async () => {
  await services.dispose();
  await api.close();
  await rm(dir, { recursive: true, force: true });
});

describe('WBS.md', { timeout: 60_000 }, () => {
  it("is written in the chat's workspace folder, and the tool result says so", async () => {
    const project = join(dir, 'project');
    await mkdir(project);
    await boot(project);
    const chat = await call<SessionSummary>('newSession');
    await runToIdle(chat.id, 'Plan the garden');
    expect(outputPathSent()).toBe(join(project, 'WBS.md'));
    expect(await readFile(join(project, 'WBS.md'), 'utf8')).toContain('Garden');
    expect(existsSync(join(dir, 'data', 'sessions', chat.id, 'WBS.md'))).toBe(false);
  });

  it('stays in the data folder for a chat without a workspace, and the result names that place', async () => {
    await boot(null);
    const chat = await call<SessionSummary>('newSession');
    await runToIdle(chat.id, 'Plan the garden');
    expect(outputPathSent()).toBe(join(dir, 'data', 'sessions', chat.id, 'WBS.md'));
    expect(existsSync(outputPathSent())).toBe(true);
  });
});
