import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { frameCollector, resultFor, wsConnect } from '../../../test-support/main/web-test-client';
import { createTestServices } from '../../../test-support/main/web-test-services';
import { IPC_CALL_CHANNEL, IPC_EVENT_CHANNEL, type WaypointEvent } from '../../shared/contract';
import type { Plan } from '../../shared/plan';
import { planChangeItems } from '../../shared/plan-change';
import { APP_INDEX_URL } from '../electron/app-protocol';
import { forwardIpc, type IpcMainLike, type WindowLike } from '../electron/ipc-forwarder';
import type { FrameLike } from '../electron/sender-check';
import { PlanService } from '../plan/plan-service';
import { startWebShell, type WebShell } from '../web/server';
import { callTool } from '../tools/define-tool';

// Both shells forward the one event pump: the Electron shell's IPC bridge (its forwarding half,
// in plain Node, with stand-ins for ipcMain and the window) and the web shell's WebSocket gateway
// are attached to the same services, which receive a burst of 200 real plan changes in one tick.
// Both must deliver the same stream: folded into one snapshot that keeps all 200 changes, in
// order with what follows it, and held text sent before a call's result.

type IpcListener = Parameters<IpcMainLike['handle']>[1];

function electronStandIns() {
  const mainFrame: FrameLike = { url: APP_INDEX_URL };
  const handlers = new Map<string, IpcListener>();
  /** What reached the window, in order: events, and call results as they resolved. */
  const received: Array<{ event: WaypointEvent } | { result: unknown }> = [];
  const ipc: IpcMainLike = {
    handle: (channel, listener) => void handlers.set(channel, listener),
    removeHandler: (channel) => void handlers.delete(channel),
  };
  const window: WindowLike = {
    isDestroyed: () => false,
    webContents: {
      mainFrame,
      // A message is a turn's events, a list.
      send: (channel, events) => {
        expect(channel).toBe(IPC_EVENT_CHANNEL);
        for (const event of events as WaypointEvent[]) received.push({ event });
      },
    },
  };
  const invoke = async (name: string, input: unknown) => {
    const result = await handlers.get(IPC_CALL_CHANNEL)!({ senderFrame: mainFrame }, name, input);
    received.push({ result });
    return result;
  };
  return { ipc, window, received, invoke, events: () => received.flatMap((r) => ('event' in r ? [r.event] : [])) };
}

const describeStream = (events: WaypointEvent[]) =>
  events.map((e) =>
    e.type === 'plan_updated' ? `plan v${e.plan.version} +${e.folded?.length ?? 0}` : e.type === 'message_delta' ? `text "${e.text}"` : e.type,
  );

let dir: string;
let services: ReturnType<typeof createTestServices>;
let shell: WebShell;
let socket: WebSocket;
let electron: ReturnType<typeof electronStandIns>;
let plans: PlanService;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'waypoint-shells-'));
  await writeFile(join(dir, 'index.html'), '<!doctype html>');
  services = createTestServices();
  electron = electronStandIns();
  forwardIpc(electron.ipc, electron.window, services, { kind: 'app', dir, url: APP_INDEX_URL });
  shell = await startWebShell({ services, staticDir: dir, port: 0 });
  const outcome = await wsConnect(`ws://127.0.0.1:${shell.port}/ws?token=${shell.token}`, { origin: `http://127.0.0.1:${shell.port}` });
  if (outcome.kind !== 'open') throw new Error(`refused with ${outcome.status}`);
  socket = outcome.socket;
  // Real plan changes: the engine's snapshots, announced as ChatService announces them.
  plans = new PlanService({ dataDir: dir });
  plans.onPlanUpdated(({ sessionId, plan, change }) => services.events.fire({ type: 'plan_updated', sessionId, plan, change }));
});

afterAll(async () => {
  socket.terminate();
  await shell.close();
  await services.dispose();
  await rm(dir, { recursive: true, force: true });
});

describe('both shells forward the one event pump', () => {
  it('a burst of 200 plan changes in one tick reaches the IPC bridge and the WebSocket as the same folded, ordered stream', async () => {
    const frames = frameCollector(socket);
    const ctx = { sessionId: 's1', signal: new AbortController().signal, settings: {} as never };
    const [createPlan, updatePlan] = plans.toolsFor('structured');

    // One tick: 200 changes (no I/O between them, so no tick ends), then the run moves on.
    const burst = (async () => {
      await callTool(createPlan!, { goal: 'Ship', steps: [{ step_number: 1, description: 'Build' }, { step_number: 2, description: 'Test' }] }, ctx);
      await callTool(updatePlan!, { action: 'start_step', step_number: 1 }, ctx);
      for (let n = 3; n <= 200; n++) await callTool(updatePlan!, { action: 'note', step_number: 1, note: `note ${n}` }, ctx);
      services.events.fire({ type: 'run_state', sessionId: 's1', state: { status: 'running', phase: 'requesting' } });
    })();
    let tickEnded = false;
    setImmediate(() => (tickEnded = true));
    await burst;
    expect(tickEnded).toBe(false);
    expect(plans.getPlan('s1')?.version).toBe(200);

    // Streamed text is held for its timer; a call's result must not overtake it, on either shell.
    services.events.fire({ type: 'message_delta', sessionId: 's1', itemId: 'm1', text: 'Hello' });
    services.events.fire({ type: 'message_delta', sessionId: 's1', itemId: 'm1', text: ', world' });
    await electron.invoke('getSettings', {});
    socket.send(JSON.stringify({ id: 7, call: 'getSettings', input: {} }));
    await frames.next(resultFor(7));

    const overIpc = electron.events();
    const overWs = frames.frames.flatMap((f) => (f.kind === 'event' ? [f.event] : []));
    expect(describeStream(overIpc)).toEqual(['plan v200 +199', 'run_state', 'text "Hello, world"']);
    expect(overWs).toEqual(overIpc);

    // The folded snapshot keeps every change: the receiver derives all 200 transcript lines, in order.
    const update = overIpc[0];
    if (update?.type !== 'plan_updated') throw new Error('expected the plan first');
    const lines = planChangeItems(null, update).map((item) => (item.kind === 'plan_change' ? item.version : -1));
    expect(lines).toEqual(Array.from({ length: 200 }, (_, i) => i + 1));

    // Results come after what was held: the IPC result after the text, and the WebSocket's too.
    expect(electron.received.findIndex((r) => 'result' in r)).toBe(3);
    const wsOrder = frames.frames.map((f) => (f.kind === 'event' ? f.event.type : `result ${f.id}`));
    expect(wsOrder.indexOf('result 7')).toBeGreaterThan(wsOrder.indexOf('message_delta'));
  });

  it('a later change goes out on its own, after the burst, with a rising version', async () => {
    const frames = frameCollector(socket);
    const before = electron.events().length;
    const ctx = { sessionId: 's1', signal: new AbortController().signal, settings: {} as never };
    await callTool(plans.toolsFor('structured')[1]!, { action: 'complete_step', step_number: 1, result: 'built' }, ctx);
    await frames.next((f) => f.kind === 'event' && f.event.type === 'plan_updated');
    const later = electron.events().slice(before);
    expect(describeStream(later)).toEqual(['plan v201 +0']);
    expect(frames.frames.flatMap((f) => (f.kind === 'event' ? [f.event] : []))).toEqual(later);
    expect((later[0] as { plan: Plan }).plan.steps[0]?.status).toBe('completed');
  });
});
