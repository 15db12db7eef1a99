import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { z } from 'zod';
import { closeAll, startChat, testTool } from '../../../../test-support/main/chat-test-setup';
import { settingsSource } from '../../../../test-support/main/chat-test-harness';
import { startInstance, type Instance } from '../../../../test-support/main/persistence-test-kit';
import { byAgent, delegate } from '../../../../test-support/main/sub-agent-scripts';
import { startScriptedServer, type ScriptedServer } from '../../../../test-support/scripted-api/server';
import { defineTool } from '../../tools/define-tool';
import { ok } from '../../tools/tool';
import { SEED_GRID_PLAN } from '../../../../test-support/main/seed-tool-calls';

let root = '';
let server: ScriptedServer | null = null;
const instances: Instance[] = [];

afterEach(async () => {
  await closeAll();
  for (const instance of instances.splice(0)) await instance.close();
  await server?.close();
  server = null;
  if (root) await rm(root, { recursive: true, force: true });
  root = '';
});

const poke = defineTool({
  name: 'poke',
  description: 'Changes something.',
  input: z.object({}).passthrough(),
  group: 'workspace',
  summarize: () => 'poke the thing',
  describeDryRun: () => 'Would poke',
  needsApproval: () => true,
  execute: async () => ok('poked'),
});

it("a sub-agent's messages and tool calls reach its card while it works (here: while it waits for an approval)", async () => {
  const { service, chats, recorder, session } = await startChat(
    { name: 'live-lines', turns: [] },
    {
      tools: [testTool('peek', async () => ok('three files')), poke],
      server: {
        respond: byAgent({
          'Split it': [{ kind: 'tool_use', calls: [delegate('toolu_A', 'alpha: look and change')] }, { kind: 'text', text: 'All done.' }],
          alpha: [
            { kind: 'tool_use', text: 'Looking first.', calls: [{ name: 'peek', id: 'toolu_peek', input: {} }] },
            { kind: 'tool_use', calls: [{ name: 'poke', id: 'toolu_poke', input: {} }] },
            { kind: 'text', text: 'Changed it.' },
          ],
        }),
      },
    },
  );
  service.sendMessage(session.id, 'Split it');
  await recorder.waitFor((e) => e.type === 'approval_requested' && e.sessionId === session.id);
  const working = chats.getSession(session.id).subagents![0]!;
  expect(working.status).toBe('working');
  expect(working.transcript?.map((l) => [l.kind, l.text, l.status])).toEqual([
    ['message', 'Looking first.', undefined],
    ['tool', 'peek {}', 'done'],
    ['tool', 'poke the thing', 'awaiting_approval'],
  ]);
  // Each line went out on the chat as it happened, not only in the final snapshot.
  expect(recorder.ofType('subagent_line').length).toBeGreaterThanOrEqual(3);
  service.answerApproval(session.id, chats.getSession(session.id).pendingApproval!.id, 'approve');
  await recorder.idle(session.id);
  expect(chats.getSession(session.id).subagents![0]!.transcript?.map((l) => [l.kind, l.text, l.status])).toEqual([
    ['message', 'Looking first.', undefined],
    ['tool', 'peek {}', 'done'],
    ['tool', 'poke the thing', 'done'],
    ['message', 'Changed it.', undefined],
  ]);
});

it("a sub-agent's whole transcript, long messages and all its calls, comes back from the log after a restart", async () => {
  root = await mkdtemp(join(tmpdir(), 'waypoint-subagent-lines-'));
  const long = `Report: ${'x'.repeat(6000)}`;
  server = await startScriptedServer({
    scenario: { name: 'full-lines', turns: [] },
    respond: byAgent({
      'Survey it': [{ kind: 'tool_use', calls: [delegate('toolu_A', 'alpha: read everything')] }, { kind: 'text', text: 'Surveyed.' }],
      alpha: [{ kind: 'tool_use', calls: Array.from({ length: 70 }, (_, i) => ({ name: 'peek', id: `toolu_p${i}`, input: { n: i } })) }, { kind: 'text', text: long }],
    }),
  });
  const settings = settingsSource();
  const peek = testTool('peek', async () => ok('seen'));
  const first = await startInstance(root, server.url, settings, [peek]);
  const { id } = first.chats.newSession();
  first.chat.sendMessage(id, 'Survey it');
  // Generous: 70 calls are many log writes on a loaded machine.
  await first.idle(id, 45_000);
  await first.close();

  const second = await startInstance(root, server.url, settings, [peek]);
  instances.push(second);
  const lines = second.chats.getSession(id).subagents![0]!.transcript!;
  expect(lines).toHaveLength(71);
  expect(lines.filter((l) => l.kind === 'tool' && l.status === 'done')).toHaveLength(70);
  expect(lines.at(-1)).toMatchObject({ kind: 'message', text: long });
}, 90_000);

it("a sub-agent's thinking and its plan's changes are lines of its card too, as the chat shows its own", async () => {
  root = await mkdtemp(join(tmpdir(), 'waypoint-subagent-thinking-lines-'));
  server = await startScriptedServer({
    scenario: { name: 'thinking-and-plan-lines', turns: [] },
    respond: byAgent({
      'Plan it': [{ kind: 'tool_use', calls: [delegate('toolu_A', 'alpha: plan the grid')] }, { kind: 'text', text: 'All planned.' }],
      alpha: [
        { kind: 'tool_use', thinking: ['A plan first, then the first step.'], calls: [{ name: 'create_plan', id: 'toolu_plan', input: SEED_GRID_PLAN }] },
        { kind: 'tool_use', calls: [{ name: 'update_plan', id: 'toolu_start', input: { action: 'start_step', step_number: 1 } }] },
        { kind: 'text', text: 'Planned and started.' },
      ],
    }),
  });
  const instance = await startInstance(root, server.url, settingsSource({ model: 'claude-opus-4-6', extendedThinking: true }), []);
  instances.push(instance);
  const { id } = instance.chats.newSession();
  instance.chat.sendMessage(id, 'Plan it');
  await instance.idle(id, 30_000);
  const lines = instance.chats.getSession(id).subagents![0]!.transcript!;
  expect(lines[0]).toMatchObject({ kind: 'thinking', text: 'A plan first, then the first step.' });
  const plan = lines.filter((l) => l.kind === 'plan').map((l) => l.text);
  expect(plan).toHaveLength(2);
  expect(plan[1]).toContain('Create vertical grid lines A, B, C');
  expect(lines.at(-1)).toMatchObject({ kind: 'message', text: 'Planned and started.' });
}, 60_000);
