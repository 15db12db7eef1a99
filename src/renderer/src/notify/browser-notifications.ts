/**
 * The browser's side of the web shell's notifications, behind one small interface so the
 * deciding code (install-notifications.ts) is tested with a recording stand-in, and the real
 * `Notification` in Chromium (e2e/notifications.spec.ts).
 */
export interface NotificationHost {
  /** Whether the page has the user's focus (a background tab or window does not). */
  focused(): boolean;
  /** Whether the browser lets this page notify now. */
  allowed(): boolean;
  /** Shows one notification; `tag` makes it replace the last one with that tag. */
  show(title: string, options: { body: string; tag: string }, onClick: () => void): void;
}

export function browserNotificationHost(win: Window & typeof globalThis = window): NotificationHost {
  return {
    focused: () => win.document.hasFocus(),
    allowed: () => 'Notification' in win && win.Notification.permission === 'granted',
    show(title, options, onClick) {
      const notification = new win.Notification(title, options);
      notification.onclick = () => {
        win.focus();
        notification.close();
        onClick();
      };
    },
  };
}

/** The words for why the checkbox stayed off, or null once the browser allows notifications. */
export async function askNotificationPermission(win: Window & typeof globalThis = window): Promise<string | null> {
  if (!('Notification' in win)) return 'This browser cannot show notifications.';
  const answer = win.Notification.permission === 'granted' ? 'granted' : await win.Notification.requestPermission();
  if (answer === 'granted') return null;
  return answer === 'denied'
    ? 'The browser blocks notifications for this page: allow them in its site settings, then turn this on again.'
    : 'Notifications stay off: the browser was not allowed to show them.';
}
