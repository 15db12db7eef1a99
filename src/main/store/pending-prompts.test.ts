import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ScriptedServer } from '../../../test-support/scripted-api/server';
import { settingsSource } from '../../../test-support/main/chat-test-harness';
import { testTool } from '../../../test-support/main/chat-test-setup';
import { ok } from '../tools/tool';
import { scripted, startInstance, type Instance } from '../../../test-support/main/persistence-test-kit';

let dir: string;
let server: ScriptedServer;
const open: Instance[] = [];
let ran: string[] = [];
const risky = { ...testTool('deploy', async (input) => (ran.push(JSON.stringify(input)), ok('deployed'))), needsApproval: () => true };

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'waypoint-pending-'));
  ran = [];
  server = await scripted({
    name: 'approve-after-restart',
    turns: [
      { kind: 'tool_use', text: 'Deploying.', calls: [{ name: 'deploy', input: { q: 'prod' }, id: 'toolu_deploy' }] },
      { kind: 'text', text: 'Deployed, all good.' },
    ],
  });
});
afterEach(async () => {
  for (const i of open.splice(0)) await i.close();
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

async function start(): Promise<Instance> {
  const instance = await startInstance(dir, server.url, settingsSource(), [risky]);
  open.push(instance);
  return instance;
}

describe('a question pending at shutdown', () => {
  it('an approval asked before a restart is asked again after it; approving runs the tool and the run goes on', async () => {
    const first = await start();
    const { id } = first.chats.newSession();
    first.chat.sendMessage(id, 'Deploy it');
    await expect.poll(() => first.chats.getSession(id).pendingApproval?.toolName, { timeout: 10_000 }).toBe('deploy');
    const requestId = first.chats.getSession(id).pendingApproval!.id;
    await first.close(); // the app quits while the question is open
    open.splice(0);

    const second = await start();
    const restored = second.chats.getSession(id);
    expect(restored.pendingApproval).toMatchObject({ id: requestId, toolName: 'deploy', toolUseId: 'toolu_deploy' });
    expect(restored.session.interrupted).toBeFalsy();
    expect(ran).toEqual([]);

    expect(second.chat.answerApproval(id, requestId, 'approve')).toEqual({ accepted: true });
    await second.idle(id);
    expect(ran).toEqual([JSON.stringify({ q: 'prod' })]);
    const after = second.chats.getSession(id);
    expect(after.pendingApproval).toBeNull();
    expect(after.transcript.find((i) => i.kind === 'tool_call')).toMatchObject({ status: 'done', result: 'deployed' });
    expect(after.transcript.at(-1)).toMatchObject({ kind: 'assistant', text: 'Deployed, all good.' });
    const sent = server.requests.at(-1)!.body as { messages: Array<{ content: unknown }> };
    expect(JSON.stringify(sent.messages.at(-1))).toContain('"tool_use_id":"toolu_deploy"');

    // And that answer is itself in the log: a third start has nothing pending.
    await second.close();
    open.splice(0);
    const third = await start();
    expect(third.chats.getSession(id).pendingApproval).toBeNull();
    expect(third.chats.getSession(id).transcript.at(-1)).toMatchObject({ text: 'Deployed, all good.' });
  });

  it('a stale answer to a restored approval is refused and changes nothing', async () => {
    const first = await start();
    const { id } = first.chats.newSession();
    first.chat.sendMessage(id, 'Deploy it');
    await expect.poll(() => first.chats.getSession(id).pendingApproval?.id, { timeout: 10_000 }).toBeTruthy();
    await first.close();
    open.splice(0);
    const second = await start();
    expect(second.chat.answerApproval(id, 'not-the-request', 'approve')).toEqual({ accepted: false });
    expect(second.chats.getSession(id).pendingApproval).not.toBeNull();
    expect(ran).toEqual([]);
  });
});
