import { IPC_CALL_CHANNEL, IPC_EVENT_CHANNEL, type CallResult, type WaypointEvent } from '../../shared/contract';
import { TurnBatch } from '../pump/turn-batch';
import { DisposableStore, toDisposable, type Disposable } from '../common/emitter';
import type { AppServices } from '../app/app-services';
import type { RendererSource } from './navigation-policy';
import { isTrustedSender, type FrameLike } from './sender-check';

/**
 * The forwarding half of the Electron shell's IPC bridge, in plain Node: ipc-bridge.ts hands it
 * Electron's ipcMain and the window; tests hand it stand-ins. Only the shapes it uses are named.
 */
export interface IpcMainLike {
  handle(channel: string, listener: (event: { senderFrame: FrameLike | null }, ...args: unknown[]) => Promise<unknown>): void;
  removeHandler(channel: string): void;
}

export interface WindowLike {
  isDestroyed(): boolean;
  readonly webContents: { readonly mainFrame: FrameLike; send(channel: string, ...args: unknown[]): void };
}

const UNTRUSTED: CallResult<never> = {
  ok: false,
  error: { code: 'invalid_input', message: 'Refused: this call did not come from the Waypoint window.' },
};

/** Calls from the window go to the router (after the sender check); the pump's events go back to it. */
export function forwardIpc(ipc: IpcMainLike, window: WindowLike, services: AppServices, source: RendererSource): Disposable {
  const store = new DisposableStore();
  // A turn's events go as one message, an array (turn-batch.ts says why).
  const batch = new TurnBatch<WaypointEvent>((events) => {
    if (!window.isDestroyed()) window.webContents.send(IPC_EVENT_CHANNEL, events);
  });
  ipc.handle(IPC_CALL_CHANNEL, async (event, name, input) => {
    if (window.isDestroyed() || !isTrustedSender(event.senderFrame, window.webContents.mainFrame, source)) {
      console.warn(`[waypoint] refused IPC call from ${event.senderFrame?.url ?? 'an unknown frame'}`);
      return UNTRUSTED;
    }
    const result = await services.router(name, input);
    // The router sent what its chats held before answering: those events reach the page first.
    batch.flush();
    return result;
  });
  store.add(toDisposable(() => ipc.removeHandler(IPC_CALL_CHANNEL)));
  store.add(services.onEvent((event) => batch.push(event)));
  return store;
}
