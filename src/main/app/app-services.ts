import type { WaypointEvent } from '../../shared/contract';
import type { Disposable } from '../common/emitter';
import type { EventPump } from '../pump/event-pump';
import type { CallRouter, ClientId } from './call-router';

/** What a shell needs from the app: one entry for calls, one stream of events, one shutdown. */
export interface AppServices {
  router: CallRouter;
  onEvent(listener: (event: WaypointEvent) => void): Disposable;
  /** The same events, a turn of main's event loop at a time: what the shells send, one message each (pump/turn-batch.ts). */
  onEvents(listener: (events: WaypointEvent[]) => void): Disposable;
  dispose(): Promise<void>;
  /** Shows an unexpected problem to the user (an `error` event); the shells' process guards use it. */
  reportProblem?(message: string): void;
  /** A shell's connection closed (a web-shell socket): what it started and cannot finish goes. */
  clientGone?(client: ClientId): void;
  /** The chat the desktop window last said it shows (setChatInView); null when none or not said. */
  chatInView?(): string | null;
  /** Keys that must never be logged (the process guards blank them out). */
  secrets?(): Array<string | null>;
}

/**
 * The two channels a shell forwards: calls through the router, events from the pump. Events the
 * pump holds, and the turn's batch, go out before each call's result, so a snapshot never
 * overtakes an event it holds.
 */
export function throughPump(route: CallRouter, pump: EventPump): Pick<AppServices, 'router' | 'onEvent' | 'onEvents'> {
  return {
    router: async (name, input, client) => {
      const result = await route(name, input, client);
      pump.flush();
      return result;
    },
    onEvent: pump.onEvent,
    onEvents: pump.onBatch,
  };
}
