import { CALL_NAMES, type WaypointEvent } from '../../src/shared/contract';
import { defaultSettings } from '../../src/shared/settings';
import { Emitter } from '../../src/main/common/emitter';
import { EventPump } from '../../src/main/pump/event-pump';
import { throughPump, type AppServices } from '../../src/main/app/app-services';
import { createCallRouter, type CallHandlers } from '../../src/main/app/call-router';
import { UserFacingError } from '../../src/main/common/errors';

/**
 * A small but real AppServices for the shells' tests: a real call router (real input validation)
 * over in-memory handlers, and an emitter the test fires events through the real event pump.
 */
export function createTestServices(): AppServices & { events: Emitter<WaypointEvent>; sent: string[] } {
  const events = new Emitter<WaypointEvent>();
  const pump = new EventPump();
  events.event((event) => pump.push(event));
  const sent: string[] = [];
  const now = new Date(0).toISOString();
  const session = { id: 's1', title: 'First chat', createdAt: now, updatedAt: now };
  const view = { settings: defaultSettings(), apiKey: { hasApiKey: false, source: 'none' as const } };
  const handlers: Partial<CallHandlers> = {
    getAppInfo: () => ({ shell: 'web', version: '0.0.0-test', workspace: null }),
    listSessions: () => ({ sessions: [] }),
    getSession: ({ sessionId }) => {
      throw new UserFacingError('not_found', `No chat with id ${sessionId}.`);
    },
    newSession: () => session,
    sendMessage: ({ text }) => {
      sent.push(text);
      return { itemId: `item-${sent.length}` };
    },
    stop: () => ({ stopped: false }),
    getSettings: () => view,
    setSettings: () => view,
    setApiKey: () => view.apiKey,
    listModels: () => ({ models: [], source: 'fallback' }),
    getPlan: () => ({ plan: null }),
  };
  return {
    ...throughPump(createCallRouter(withRefusals(handlers)), pump),
    dispose: async () => {
      events.dispose();
      pump.dispose();
    },
    events,
    sent,
  };
}

/** Calls these tests don't exercise answer not_found, so the router still covers the whole contract. */
function withRefusals(handlers: Partial<CallHandlers>): CallHandlers {
  const refuse = (name: string) => () => {
    throw new UserFacingError('not_found', `The test services don't implement ${name}.`);
  };
  return Object.fromEntries(CALL_NAMES.map((name) => [name, handlers[name] ?? refuse(name)])) as CallHandlers;
}
