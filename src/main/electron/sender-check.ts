import { isAppUrl, type RendererSource } from './navigation-policy';

/** The bits of Electron's WebFrameMain the check needs. */
export interface FrameLike {
  readonly url: string;
}

/**
 * IPC is answered only for the main window's top frame showing the app itself, never for an
 * iframe, another window, or the window after it was somehow navigated elsewhere.
 */
export function isTrustedSender(
  senderFrame: FrameLike | null | undefined,
  mainFrame: FrameLike | null | undefined,
  source: RendererSource,
): boolean {
  if (!senderFrame || !mainFrame || senderFrame !== mainFrame) return false;
  return isAppUrl(senderFrame.url, source);
}
