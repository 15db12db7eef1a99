import { CALL_NAMES, type WaypointEvent } from '../../shared/contract';
import { defaultSettings } from '../../shared/settings';
import { Emitter } from '../common/emitter';
import type { AppServices } from '../app/app-services';
import { createCallRouter, UserFacingError, type CallHandlers } from '../app/call-router';

/**
 * A small but real AppServices for the web shell's tests: a real call router (real input
 * validation) over in-memory handlers, and an emitter the test fires events through.
 */
export function createTestServices(): AppServices & { events: Emitter<WaypointEvent>; sent: string[] } {
  const events = new Emitter<WaypointEvent>();
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
    router: createCallRouter(withRefusals(handlers)),
    onEvent: events.event,
    dispose: async () => events.dispose(),
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
