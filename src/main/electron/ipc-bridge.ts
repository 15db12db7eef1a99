import { ipcMain, type BrowserWindow } from 'electron';
import { IPC_CALL_CHANNEL, IPC_EVENT_CHANNEL, type CallResult } from '../../shared/contract';
import { DisposableStore, toDisposable, type Disposable } from '../common/emitter';
import type { AppServices } from '../app/app-services';
import type { RendererSource } from './navigation-policy';
import { isTrustedSender } from './sender-check';

const UNTRUSTED: CallResult<never> = {
  ok: false,
  error: { code: 'invalid_input', message: 'Refused: this call did not come from the Waypoint window.' },
};

/** Calls from the window go to the router (after the sender check); events go back to it. */
export function bridgeIpc(window: BrowserWindow, services: AppServices, source: RendererSource): Disposable {
  const store = new DisposableStore();
  ipcMain.handle(IPC_CALL_CHANNEL, async (event, name: unknown, input: unknown) => {
    if (window.isDestroyed() || !isTrustedSender(event.senderFrame, window.webContents.mainFrame, source)) {
      console.warn(`[waypoint] refused IPC call from ${event.senderFrame?.url ?? 'an unknown frame'}`);
      return UNTRUSTED;
    }
    return services.router(name, input);
  });
  store.add(toDisposable(() => ipcMain.removeHandler(IPC_CALL_CHANNEL)));
  store.add(
    services.onEvent((event) => {
      if (!window.isDestroyed()) window.webContents.send(IPC_EVENT_CHANNEL, event);
    }),
  );
  return store;
}
