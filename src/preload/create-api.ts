import {
  IPC_CALL_CHANNEL,
  IPC_EVENT_CHANNEL,
  WaypointCallError,
  type CallResult,
  type WaypointApi,
} from '../shared/contract';
import { checkEvent } from '../shared/event-check';

/** The slice of ipcRenderer the preload uses; nothing else of it ever reaches the page. */
export interface PreloadIpc {
  invoke(channel: string, ...args: unknown[]): Promise<unknown>;
  on(channel: string, listener: (event: unknown, ...args: unknown[]) => void): unknown;
  removeListener(channel: string, listener: (event: unknown, ...args: unknown[]) => void): unknown;
}

function isCallResult(value: unknown): value is CallResult<unknown> {
  return typeof value === 'object' && value !== null && typeof (value as { ok?: unknown }).ok === 'boolean';
}

/**
 * Builds window.waypoint from two IPC channels. Kept free of 'electron' so it can be tested
 * in plain Node; index.ts hands it the real ipcRenderer.
 */
export function createWaypointApi(ipc: PreloadIpc): WaypointApi {
  return {
    async call(name, input) {
      const result = await ipc.invoke(IPC_CALL_CHANNEL, name, input);
      if (!isCallResult(result)) throw new WaypointCallError('internal', 'Waypoint main process sent a malformed reply.');
      if (!result.ok) throw new WaypointCallError(result.error.code, result.error.message);
      return result.value as never;
    },
    onEvent(listener) {
      // Strip the IpcRendererEvent: the page gets the event payloads and nothing else, each checked
      // against the contract exactly as the web client checks it (src/shared/event-check.ts). A
      // message is the array of events main sent in one turn.
      const wrapped = (_event: unknown, payloads: unknown) => {
        if (!Array.isArray(payloads)) {
          console.warn('Waypoint ignored an event message from main that is not a list of events.');
          return;
        }
        for (const payload of payloads) {
          const event = checkEvent(payload, console.warn);
          if (event) listener(event);
        }
      };
      ipc.on(IPC_EVENT_CHANNEL, wrapped);
      return () => {
        ipc.removeListener(IPC_EVENT_CHANNEL, wrapped);
      };
    },
  };
}
