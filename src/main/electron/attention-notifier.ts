import { app, Notification, type BrowserWindow } from 'electron';
import { AttentionWatch } from '../../shared/attention';
import { IPC_EVENT_CHANNEL, type WaypointEvent } from '../../shared/contract';
import type { AppServices } from '../app/services';
import type { Disposable } from '../common/emitter';

/**
 * The desktop's notifications (docs/contract.md §8): when a chat starts waiting for a person or
 * finishes a run, unless it is the chat the focused window shows. Title: the chat's title; body:
 * what is asked, or "Done". No action buttons (a button that cannot act would do nothing): a click
 * brings the window back and opens the chat at its prompt, through the window's event channel.
 * The dock/taskbar badge counts the chats waiting: from `waitingAtStart` (the chats the listing
 * stamps "needs-you" when the app starts, restored from their logs, which fire no event), then
 * from the events.
 */
export function notifyDesktop(
  services: Pick<AppServices, 'onEvent' | 'chatInView'>,
  window: () => BrowserWindow | null,
  titleOf: (sessionId: string) => string | undefined,
  waitingAtStart: Iterable<string> = [],
): Disposable {
  const watch = new AttentionWatch();
  watch.seed(waitingAtStart);
  // Held until closed: one per chat (a newer one replaces it), and a notification nobody holds
  // may be collected before its click arrives.
  const shown = new Map<string, Notification>();
  let badge = watch.waiting();
  if (badge) app.setBadgeCount(badge);
  return services.onEvent((event) => {
    const attention = watch.take(event);
    const waiting = watch.waiting();
    if (waiting !== badge) {
      badge = waiting;
      app.setBadgeCount(waiting);
    }
    if (!attention) return;
    const win = window();
    if (!win || win.isDestroyed() || !Notification.isSupported()) return;
    if (win.isFocused() && services.chatInView?.() === attention.sessionId) return;
    shown.get(attention.tag)?.close();
    const notification = new Notification({ title: titleOf(attention.sessionId) ?? 'Waypoint', body: attention.body });
    shown.set(attention.tag, notification);
    notification.on('close', () => {
      if (shown.get(attention.tag) === notification) shown.delete(attention.tag);
    });
    notification.on('click', () => {
      if (win.isDestroyed()) return;
      if (win.isMinimized()) win.restore();
      win.show();
      win.focus();
      const open: WaypointEvent = { type: 'open_chat', sessionId: attention.sessionId };
      // The event channel carries a turn's events: a list, of one here.
      win.webContents.send(IPC_EVENT_CHANNEL, [open]);
    });
    notification.show();
  });
}
