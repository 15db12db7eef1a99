import { afterEach, describe, expect, it, vi } from 'vitest';
import { EventEmitter } from 'node:events';
import { IPC_CALL_CHANNEL, IPC_EVENT_CHANNEL, WaypointCallError, type WaypointEvent } from '../../shared/contract';
import { createWaypointApi, type PreloadIpc } from '../../preload/create-api';
import { createTestServices } from '../../../test-support/main/web-test-services';
import { ipcRenderer, recorded } from '../../../test-support/electron-stand-in';

vi.mock('electron', async () => (await import('../../../test-support/electron-stand-in')).electron);

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
  // Main sends a turn's events as one message, a list.
  const send = (...events: WaypointEvent[]) => channel.emit(IPC_EVENT_CHANNEL, { sender: 'raw-ipc-event' }, events);
  return { ipc, send, services, seenChannels, channel };
}

afterEach(() => {
  vi.restoreAllMocks();
});

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
    const other: WaypointEvent = { type: 'run_state', sessionId: 's1', state: { status: 'idle' } };
    send(event, other);
    expect(got).toEqual([[event], [other]]); // a turn's events, one call each, in order
    off();
    send(event);
    expect(got).toHaveLength(2);
    expect(channel.listenerCount(IPC_EVENT_CHANNEL)).toBe(0);
  });

  it('refuses an event the contract does not know, warning with its type and the issue but no payload text', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const { ipc, channel } = ipcPair();
    const got: unknown[] = [];
    createWaypointApi(ipc).onEvent((event) => got.push(event));
    const raw = (payload: unknown) => channel.emit(IPC_EVENT_CHANNEL, { sender: 'raw-ipc-event' }, payload);
    const valid: WaypointEvent = { type: 'run_state', sessionId: 's1', state: { status: 'idle' } };
    // One bad event in a turn's list costs only itself.
    raw([{ type: 'run_state', sessionId: 's1', state: { status: 'sk-ant-test-never-logged' } }, valid]);
    raw([{ type: 'no_such_event', secret: 'sk-ant-test-never-logged' }]);
    raw(['not an object']);
    raw({ type: 'error', message: 'sk-ant-test-never-logged: a lone event, not a list' });
    expect(got).toEqual([valid]);
    const lines = warn.mock.calls.map((args) => args.join(' '));
    expect(lines).toHaveLength(4);
    expect(lines[0]).toMatch(/invalid event of type "run_state".*state\.status/);
    expect(lines[1]).toMatch(/invalid event of type "no_such_event".*type/);
    expect(lines[2]).toMatch(/invalid event of type \(no type\)/);
    expect(lines[3]).toMatch(/not a list of events/);
    for (const line of lines) expect(line).not.toContain('sk-ant-test');
  });

  it('exposes nothing but call and onEvent', () => {
    expect(Object.keys(createWaypointApi(ipcPair().ipc)).sort()).toEqual(['call', 'onEvent']);
  });

  it('as loaded in the window (src/preload/index.ts on electron), checks events before the page sees them', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const on = vi.spyOn(ipcRenderer, 'on');
    await import('../../preload/index');
    const api = recorded.exposed.get('waypoint') as ReturnType<typeof createWaypointApi>;
    const got: unknown[] = [];
    api.onEvent((event) => got.push(event));
    const [channel, forward] = on.mock.calls.at(-1) as unknown as [string, (event: unknown, payload: unknown) => void];
    expect(channel).toBe(IPC_EVENT_CHANNEL);
    forward({}, [{ type: 'error', message: 404 }]);
    const valid: WaypointEvent = { type: 'error', message: 'Not found.' };
    forward({}, [valid]);
    expect(got).toEqual([valid]);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0]?.[0])).toMatch(/invalid event of type "error".*message/);
  });
});
