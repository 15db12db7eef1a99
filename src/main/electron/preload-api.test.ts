import { describe, expect, it } from 'vitest';
import { EventEmitter } from 'node:events';
import { IPC_CALL_CHANNEL, IPC_EVENT_CHANNEL, WaypointCallError, type WaypointEvent } from '../../shared/contract';
import { createWaypointApi, type PreloadIpc } from '../../preload/create-api';
import { createTestServices } from '../../../test-support/main/web-test-services';

/**
 * The two ends of Electron IPC without Electron: `invoke` runs the real router the way
 * ipcMain.handle does, and `send` delivers to `on` listeners with an IpcRendererEvent first.
 */
function ipcPair() {
  const services = createTestServices();
  const channel = new EventEmitter();
  const seenChannels: string[] = [];
  const ipc: PreloadIpc = {
    invoke: async (ch, ...args) => {
      seenChannels.push(ch);
      if (ch !== IPC_CALL_CHANNEL) throw new Error(`No handler registered for '${ch}'`);
      return services.router(args[0], args[1]);
    },
    on: (ch, listener) => channel.on(ch, listener),
    removeListener: (ch, listener) => channel.removeListener(ch, listener),
  };
  const send = (event: WaypointEvent) => channel.emit(IPC_EVENT_CHANNEL, { sender: 'raw-ipc-event' }, event);
  return { ipc, send, services, seenChannels, channel };
}

describe('preload api (window.waypoint)', () => {
  it('unwraps successful calls into values over the call channel', async () => {
    const { ipc, seenChannels } = ipcPair();
    const api = createWaypointApi(ipc);
    expect(await api.call('getAppInfo', {})).toEqual({ shell: 'web', version: '0.0.0-test', workspace: null });
    expect(await api.call('sendMessage', { sessionId: 's1', text: 'hi' })).toEqual({ itemId: 'item-1' });
    expect(seenChannels).toEqual([IPC_CALL_CHANNEL, IPC_CALL_CHANNEL]);
  });

  it('turns failed calls into WaypointCallError with the contract code', async () => {
    const api = createWaypointApi(ipcPair().ipc);
    const error = await api.call('getSession', { sessionId: 'x' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WaypointCallError);
    expect(error).toMatchObject({ code: 'not_found', message: 'No chat with id x.' });
    await expect(api.call('sendMessage', { sessionId: 's1', text: '' })).rejects.toMatchObject({ code: 'invalid_input' });
    await expect(api.call('nope' as never, {} as never)).rejects.toMatchObject({ code: 'unknown_call' });
  });

  it('treats a malformed reply as an internal error', async () => {
    const api = createWaypointApi({ ...ipcPair().ipc, invoke: async () => 'garbage' });
    await expect(api.call('listSessions', {})).rejects.toMatchObject({ code: 'internal' });
  });

  it('passes only the event payload to listeners, and unsubscribes', () => {
    const { ipc, send, channel } = ipcPair();
    const api = createWaypointApi(ipc);
    const got: unknown[][] = [];
    const off = api.onEvent((...args: unknown[]) => got.push(args));
    const event: WaypointEvent = { type: 'error', message: 'boom' };
    send(event);
    expect(got).toEqual([[event]]);
    off();
    send(event);
    expect(got).toHaveLength(1);
    expect(channel.listenerCount(IPC_EVENT_CHANNEL)).toBe(0);
  });

  it('exposes nothing but call and onEvent', () => {
    expect(Object.keys(createWaypointApi(ipcPair().ipc)).sort()).toEqual(['call', 'onEvent']);
  });
});
