import { IPC_CALL_CHANNEL, IPC_EVENT_CHANNEL, type CallResult } from '../../shared/contract';
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
  ipc.handle(IPC_CALL_CHANNEL, async (event, name, input) => {
    if (window.isDestroyed() || !isTrustedSender(event.senderFrame, window.webContents.mainFrame, source)) {
      console.warn(`[waypoint] refused IPC call from ${event.senderFrame?.url ?? 'an unknown frame'}`);
      return UNTRUSTED;
    }
    // The router sends what the pump holds, and the turn's events, before it answers.
    return services.router(name, input);
  });
  store.add(toDisposable(() => ipc.removeHandler(IPC_CALL_CHANNEL)));
  // A turn's events go as one message, a list (pump/turn-batch.ts says why).
  store.add(
    services.onEvents((events) => {
      if (!window.isDestroyed()) window.webContents.send(IPC_EVENT_CHANNEL, events);
    }),
  );
  return store;
}
