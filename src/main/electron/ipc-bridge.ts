import { ipcMain, type BrowserWindow } from 'electron';
import type { Disposable } from '../common/emitter';
import type { AppServices } from '../app/app-services';
import { forwardIpc } from './ipc-forwarder';
import type { RendererSource } from './navigation-policy';

/** Calls from the window go to the router (after the sender check); events go back to it. */
export function bridgeIpc(window: BrowserWindow, services: AppServices, source: RendererSource): Disposable {
  return forwardIpc(ipcMain, window, services, source);
}
