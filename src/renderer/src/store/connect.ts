import type { WaypointApi } from '../../../shared/contract';
import { isConnectionAware } from '../api/connection';
import { backoffDelay } from '../api/backoff';
import { applyEvent } from './apply-event';
import { createBookkeepingBatcher, isBookkeeping } from './bookkeeping-batcher';
import { createDeltaBatcher } from './delta-batcher';
import { frameSchedule, type Schedule } from './frame-schedule';
import { messageOf } from './errors';
import { createPlanBatcher } from './plan-batcher';
import type { WaypointStore } from './types';

export interface ConnectOptions {
  /** How deltas are coalesced; tests pass a synchronous one. */
  schedule?: Schedule;
  /** When held `session_updated` / `run_state` go in with nothing after them (default: before the next frame). */
  bookkeepingSchedule?: Schedule;
  /** Delay before retrying a failed initial load (attempt from 1). */
  retryDelayMs?: (attempt: number) => number;
  /** The chat to open first when it still exists (the one this tab had open before a reload). */
  preferredChat?: string | null;
}

export const UNREACHABLE_MESSAGE = "Can't reach Waypoint's backend — retrying…";

/**
 * Wires the store to main, outside React: subscribe to events first, then load the snapshot
 * (app info, settings, sessions, the newest chat), retrying until main answers, and load again
 * after a dropped connection comes back. Returns the unsubscribe.
 */
export function connectStore(api: WaypointApi, store: WaypointStore, options: ConnectOptions = {}): () => void {
  const retryDelayMs = options.retryDelayMs ?? ((attempt: number) => backoffDelay(attempt, 500, 5000));
  const batcher = createDeltaBatcher((batch) => store.getState().appendDeltas(batch), options.schedule);
  const plans = createPlanBatcher((event) => applyEvent(store.getState(), event), options.schedule);
  // Held plans arrived before any held bookkeeping, so they go first.
  const bookkeeping = createBookkeepingBatcher((event) => applyEvent(store.getState(), event), options.bookkeepingSchedule ?? frameSchedule(100), plans.flush);
  let disposed = false;
  let retryTimer: ReturnType<typeof setTimeout> | null = null;
  let loadGeneration = 0;

  const offEvent = api.onEvent((event) => {
    if (event.type === 'message_delta') {
      batcher.push(event.sessionId, event.itemId, event.text, event.offset);
      return;
    }
    batcher.flush();
    if (isBookkeeping(event)) {
      bookkeeping.push(event);
      return;
    }
    // Held bookkeeping (and plans before it) first, in the same task: one React commit with this event.
    bookkeeping.flush();
    if (event.type === 'plan_updated') {
      plans.push(event);
      return;
    }
    plans.flush(); // held plan updates first, so every other event sees what came before it
    applyEvent(store.getState(), event);
  });

  const load = async (attempt: number): Promise<void> => {
    const generation = ++loadGeneration;
    try {
      const [appInfo, settings, { sessions }] = await Promise.all([
        api.call('getAppInfo', {}),
        api.call('getSettings', {}),
        api.call('listSessions', {}),
      ]);
      if (disposed || generation !== loadGeneration) return;
      const state = store.getState();
      state.setAppInfo(appInfo);
      state.setSettingsView(settings);
      state.setSessions(sessions);
      state.pruneDrafts(sessions.map((s) => s.id));
      void state.loadMcpStates(); // a server that failed before this page connected is told too
      const exists = (id: string | null | undefined): id is string => !!id && sessions.some((s) => s.id === id);
      const target = [state.currentSessionId, options.preferredChat].find(exists) ?? store.getState().sessions[0]?.id;
      // The window is ready once the list is in: the chat to show opens (its log may be long) while
      // the sidebar, header and composer are already there, as after a click in the sidebar. Its
      // id is current before the first frame, so what is typed meanwhile is that chat's draft.
      // With no chat yet, the first one is made before the window shows: its message box would
      // otherwise be replaced by the new chat's under the user's first keys.
      if (!target) await state.newChat();
      if (disposed || generation !== loadGeneration) return;
      const opening = target ? state.openSession(target) : null;
      store.getState().setLoad({ status: 'ready' });
      store.getState().setLastError(null);
      // A chat that fails to open says so in the error banner (openSession and newChat set it);
      // the window stays usable, so it is not a reason to load everything again.
      await opening;
    } catch (error) {
      if (disposed || generation !== loadGeneration) return;
      if (store.getState().connection.state === 'refused') return; // a stale link: retrying can't help
      // Once loaded, a failed reload keeps the last view (the banner says we're reconnecting).
      if (store.getState().load.status !== 'ready') {
        store.getState().setLoad({ status: 'unreachable', message: `${UNREACHABLE_MESSAGE} (${messageOf(error)})` });
      }
      retryTimer = setTimeout(() => void load(attempt + 1), retryDelayMs(attempt));
    }
  };

  let offStatus = () => {};
  if (isConnectionAware(api)) {
    store.getState().setConnection(api.connectionStatus());
    let wasDown = false;
    offStatus = api.onConnectionStatus((status) => {
      store.getState().setConnection(status);
      if (status.state === 'reconnecting') wasDown = true;
      if (status.state === 'open' && wasDown) {
        wasDown = false;
        if (retryTimer) clearTimeout(retryTimer);
        void load(1); // state of record lives in main: rebuild the projection
      }
    });
  }

  void load(1);

  return () => {
    disposed = true;
    if (retryTimer) clearTimeout(retryTimer);
    offEvent();
    offStatus();
    batcher.dispose();
    bookkeeping.dispose();
    plans.dispose();
  };
}
