import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { EventRecorder, keySource, settingsSource } from '../../../../test-support/main/chat-test-harness';
import { startScriptedServer } from '../../../../test-support/scripted-api/server';
import type { WaypointEvent } from '../../../shared/contract';
import { PlanService } from '../../plan/plan-service';
import { EventPump } from '../../pump/event-pump';
import { ToolRegistry } from '../../tools/tool-registry';
import { chatsAndRuns } from '../../../../test-support/main/chats-and-runs';

// Issue 15 item 4: a reply's planning calls are folded into one plan_updated by the event pump at
// the end of the event loop's turn. The loop must give it that turn before it builds the next
// request, or the panel waits for the whole request to be built (and measured) first.

const KEY = 'sk-ant-test-plan-out';
const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

it("a reply's plan changes leave the pump before the next request is built", async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'wp-plan-out-'));
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  const steps = [1, 2, 3].map((n) => ({ step_number: n, description: `Step ${n}` }));
  const server = await startScriptedServer({
    requireApiKey: KEY,
    scenario: {
      name: 'plan-goes-out',
      turns: [
        {
          kind: 'tool_use',
          calls: [
            { name: 'create_plan', input: { goal: 'Three steps', steps } },
            { name: 'update_plan', input: { action: 'start_step', step_number: 1 } },
            { name: 'update_plan', input: { action: 'complete_step', step_number: 1, result: 'done' } },
            { name: 'update_plan', input: { action: 'start_step', step_number: 2 } },
          ],
        },
        { kind: 'text', text: 'Working on step 2.' },
      ],
    },
  });
  cleanups.push(() => server.close());
  const plans = new PlanService({ dataDir });
  const settings = settingsSource();
  const pumped: WaypointEvent[] = [];
  /** At each read of the settings once the reply's four changes are made: what the pump had sent by then. */
  const sentWhenRead: boolean[] = [];
  let sessionId = '';
  const { chats, chat: service, dispose: disposeChats } = chatsAndRuns({
    settings: {
      ...settings,
      // The loop reads the settings first thing when it starts building the next request.
      get: () => {
        if (plans.getPlan(sessionId)?.version === 4) sentWhenRead.push(pumped.some((e) => e.type === 'plan_updated' && e.plan.version === 4));
        return settings.get();
      },
    },
    apiKey: keySource(KEY),
    plans,
    tools: new ToolRegistry(),
    baseURL: server.url,
    workspace: dataDir,
  });
  cleanups.push(() => disposeChats());
  const pump = new EventPump();
  cleanups.push(() => pump.dispose());
  chats.onEvent((event) => pump.push(event));
  pump.onEvent((event) => pumped.push(event));
  const recorder = new EventRecorder();
  chats.onEvent(recorder.listener);
  sessionId = chats.newSession().id;
  service.sendMessage(sessionId, 'Plan it and start.');
  await recorder.idle(sessionId, 0, 15_000);

  expect(server.requests).toHaveLength(2);
  expect(sentWhenRead[0]).toBe(true);
  // Still one event for the reply's four changes (three folded into the last), before the next request's "requesting".
  const plan = pumped.filter((e) => e.type === 'plan_updated');
  expect(plan.map((e) => (e.type === 'plan_updated' ? [e.plan.version, e.folded?.map((f) => f.version)] : null))).toEqual([[4, [1, 2, 3]]]);
  const requesting = pumped.findIndex((e, i) => i > pumped.indexOf(plan[0]!) && e.type === 'run_state' && e.state.status === 'running' && e.state.phase === 'requesting');
  expect(requesting).toBeGreaterThan(-1);
});
