import { Notification, type BrowserWindow } from 'electron';
import type { AppServices } from '../app/services';
import type { Disposable } from '../common/emitter';
import { attentionMessage } from './attention-message';

/**
 * A desktop notification when a run pauses for the user (an escalation, an approval, a question
 * from Claude) while the window is not focused; clicking it brings the window back. When
 * focused, the in-app alertdialog is enough.
 */
export function notifyWhenUnfocused(services: AppServices, window: () => BrowserWindow | null): Disposable {
  return services.onEvent((event) => {
    const message = attentionMessage(event);
    const win = window();
    if (!message || !win || win.isFocused() || !Notification.isSupported()) return;
    const notification = new Notification({ title: message.title, body: message.body });
    notification.on('click', () => {
      if (win.isDestroyed()) return;
      if (win.isMinimized()) win.restore();
      win.show();
      win.focus();
    });
    notification.show();
  });
}
