import { AttentionWatch } from '../../../shared/attention';
import type { WaypointApi } from '../../../shared/contract';
import type { WaypointStore } from '../store/types';
import { browserNotificationHost, type NotificationHost } from './browser-notifications';

/**
 * Notifications from the window (docs/contract.md §8): it knows which chat is in view and
 * whether it has the focus. In the web shell, with Settings "Notifications" on, a chat that
 * starts waiting for a person or finishes a run calls through the browser's Notification unless
 * it is the chat in view of the focused window; a click opens that chat at its prompt. The desktop
 * app's notifications come from main (electron/attention-notifier.ts): there the window only
 * tells main which chat it shows. Returns the uninstall.
 */
export function installNotifications(api: WaypointApi, store: WaypointStore, host: NotificationHost = browserNotificationHost()): () => void {
  const watch = new AttentionWatch();
  const offEvents = api.onEvent((event) => {
    const attention = watch.take(event);
    if (!attention) return;
    const state = store.getState();
    if (state.appInfo?.shell !== 'web' || !state.settingsView?.settings.notifications || !host.allowed()) return;
    if (attention.sessionId === state.currentSessionId && host.focused()) return;
    const title = state.sessions.find((chat) => chat.id === attention.sessionId)?.title ?? 'Waypoint';
    host.show(title, { body: attention.body, tag: attention.tag }, () => {
      const now = store.getState();
      now.closeSettings();
      void now.openSession(attention.sessionId);
    });
  });

  let told: string | null | undefined;
  const tellMain = () => {
    const { appInfo, currentSessionId } = store.getState();
    if (appInfo?.shell !== 'electron' || currentSessionId === told) return;
    told = currentSessionId;
    // Best effort: at worst main also calls for the chat in view.
    void api.call('setChatInView', { sessionId: currentSessionId }).catch(() => undefined);
  };
  tellMain();
  const offStore = store.subscribe(tellMain);
  return () => {
    offEvents();
    offStore();
  };
}
