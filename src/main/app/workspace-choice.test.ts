import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startScriptedServer, type ScriptedServer } from '../../../test-support/scripted-api/server';
import type { WaypointEvent } from '../../shared/contract';
import type { SessionSummary, TranscriptItem } from '../../shared/transcript';
import { MemorySecretStore } from '../settings/api-key-store';
import { createServices, type AppServices } from './services';
import { checkWorkspaceFolder } from './workspace-choice';

// A chat's workspace chosen in the web shell (issue 23 item 1): the typed folder is checked in
// main before the chat uses it, and a bad one is refused in words and changes nothing.

let dir: string;
let api: ScriptedServer;
let services: AppServices;
let events: WaypointEvent[];

async function call<T = unknown>(name: string, input: unknown = {}): Promise<T> {
  const result = await services.router(name, input);
  if (!result.ok) throw new Error(result.error.message);
  return result.value as T;
}

const sessionOf = (id: string) => call<{ session: SessionSummary; transcript: TranscriptItem[] }>('getSession', { sessionId: id });

beforeEach(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), 'waypoint-ws-choice-')));
  api = await startScriptedServer({ scenario: { name: 'echo', turns: [], onExhausted: 'echo' } });
  // Like `npm run web` without --workspace: new chats have no folder.
  services = await createServices({
    dataDir: join(dir, 'data'),
    workspace: null,
    shell: 'web',
    secretStore: new MemorySecretStore(),
    env: { ANTHROPIC_API_KEY: 'sk-ant-test-ws', ANTHROPIC_BASE_URL: api.url },
  });
  events = [];
  services.onEvent((e) => events.push(e));
});
afterEach(async () => {
  await services.dispose();
  await api.close();
  await rm(dir, { recursive: true, force: true });
});

describe('checkWorkspaceFolder', () => {
  const places = () => [{ path: join(dir, 'data'), what: "Waypoint's data folder" }];

  it('takes an existing folder and gives its real path', async () => {
    await mkdir(join(dir, 'project'));
    await symlink(join(dir, 'project'), join(dir, 'link'));
    expect(checkWorkspaceFolder(`  ${join(dir, 'project')}  `, places())).toBe(join(dir, 'project'));
    expect(checkWorkspaceFolder(join(dir, 'link'), places())).toBe(join(dir, 'project'));
    expect(checkWorkspaceFolder('~/project', places(), dir)).toBe(join(dir, 'project'));
  });

  it('refuses, in words, an empty, relative, missing or file path and the data folder or a folder inside it', async () => {
    await writeFile(join(dir, 'notes.txt'), 'x');
    await mkdir(join(dir, 'data', 'chats'), { recursive: true });
    await symlink(join(dir, 'data'), join(dir, 'data-link'));
    expect(() => checkWorkspaceFolder('   ', places())).toThrow('The folder path is empty');
    expect(() => checkWorkspaceFolder('project', places())).toThrow('"project" is not a full path');
    expect(() => checkWorkspaceFolder(join(dir, 'missing'), places())).toThrow(`There is no folder at "${join(dir, 'missing')}"`);
    expect(() => checkWorkspaceFolder(join(dir, 'notes.txt'), places())).toThrow('is a file, not a folder');
    expect(() => checkWorkspaceFolder(join(dir, 'data'), places())).toThrow("is inside Waypoint's data folder");
    expect(() => checkWorkspaceFolder(join(dir, 'data', 'chats'), places())).toThrow("is inside Waypoint's data folder");
    expect(() => checkWorkspaceFolder(join(dir, 'data-link'), places())).toThrow("is inside Waypoint's data folder");
    // A folder that holds the data folder is the user's (the tools leave the data folder alone there).
    expect(checkWorkspaceFolder(dir, places())).toBe(dir);
  });
});

describe('chooseWorkspace in the web shell', { timeout: 60_000 }, () => {
  it('sets a new chat’s folder from the typed path; a bad path is refused and changes nothing', async () => {
    const chat = await call<SessionSummary>('newSession');
    expect(chat.workspace).toBeUndefined();
    await expect(call('chooseWorkspace', { sessionId: chat.id, folder: join(dir, 'data') })).rejects.toThrow("inside Waypoint's data folder");
    await expect(call('chooseWorkspace', { sessionId: chat.id, folder: join(dir, 'nope') })).rejects.toThrow('There is no folder at');
    expect((await sessionOf(chat.id)).session.workspace).toBeUndefined();

    await mkdir(join(dir, 'project'));
    expect(await call('chooseWorkspace', { sessionId: chat.id, folder: join(dir, 'project') })).toEqual({ workspace: join(dir, 'project') });
    const after = await sessionOf(chat.id);
    expect(after.session.workspace).toBe(join(dir, 'project'));
    // Before the first message nothing is said in the transcript: the header shows it.
    expect(after.transcript).toEqual([]);
    expect(events.some((e) => e.type === 'session_updated' && e.session.id === chat.id && e.session.workspace === join(dir, 'project'))).toBe(true);
  });

  it('a change after the first message is said in the transcript', async () => {
    await mkdir(join(dir, 'a'));
    await mkdir(join(dir, 'b'));
    const chat = await call<SessionSummary>('newSession');
    await call('chooseWorkspace', { sessionId: chat.id, folder: join(dir, 'a') });
    await call('sendMessage', { sessionId: chat.id, text: 'hello' });
    const deadline = Date.now() + 30_000;
    while (!events.some((e) => e.type === 'run_state' && e.sessionId === chat.id && e.state.status === 'idle')) {
      if (Date.now() > deadline) throw new Error('the reply never ended');
      await new Promise((r) => setTimeout(r, 20));
    }
    await call('chooseWorkspace', { sessionId: chat.id, folder: join(dir, 'b') });
    const notices = (await sessionOf(chat.id)).transcript.filter((i) => i.kind === 'notice');
    expect(notices.map((n) => n.kind === 'notice' && n.text)).toEqual([
      `Workspace changed to ${join(dir, 'b')} (it was ${join(dir, 'a')}): Claude's file and command tools work there from the next message.`,
    ]);
  });

  it('without a typed folder the web shell, which has no picker, says what to do', async () => {
    const chat = await call<SessionSummary>('newSession');
    await expect(call('chooseWorkspace', { sessionId: chat.id })).rejects.toThrow('type the folder');
  });
});
