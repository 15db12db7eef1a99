// @vitest-environment happy-dom
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MemoryBackend } from '../../test-support/memory-backend';
import { mountApp, unmountApps } from '../../test-support/mount-app';

/** The page's Notification with a permission the test decides: what the browser would answer. */
function browserAnswers(answer: NotificationPermission) {
  const asked: string[] = [];
  const StandIn = Object.assign(function Notification() {}, {
    permission: 'default' as NotificationPermission,
    requestPermission: async () => {
      asked.push('asked');
      StandIn.permission = answer;
      return answer;
    },
  });
  Object.defineProperty(window, 'Notification', { value: StandIn, configurable: true, writable: true });
  return asked;
}

async function openSettings(shell: 'web' | 'electron' = 'web') {
  const backend = new MemoryBackend();
  backend.override('getAppInfo', () => ({ shell, version: 't', workspace: null }));
  backend.addChat('s1', 'Chat');
  mountApp(backend);
  fireEvent.click(await screen.findByRole('button', { name: 'Settings' }));
  return { backend, dialog: screen.getByRole('dialog', { name: 'Settings' }) };
}

beforeEach(() => localStorage.clear());
afterEach(() => {
  unmountApps();
  Reflect.deleteProperty(window, 'Notification');
});

describe('Settings "Notifications"', () => {
  it('asks the browser when turned on; allowed, it is on and Save keeps it', async () => {
    const asked = browserAnswers('granted');
    const { backend, dialog } = await openSettings();
    const box = within(dialog).getByRole('checkbox', { name: 'Notifications' }) as HTMLInputElement;
    expect(box.checked).toBe(false);
    fireEvent.click(box);
    await waitFor(() => expect(box.checked).toBe(true));
    expect(asked).toEqual(['asked']);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(backend.view.settings.notifications).toBe(true));
  });

  it('refused by the browser, it says so in words and stays off', async () => {
    browserAnswers('denied');
    const { backend, dialog } = await openSettings();
    const box = within(dialog).getByRole('checkbox', { name: 'Notifications' }) as HTMLInputElement;
    fireEvent.click(box);
    expect(await within(dialog).findByText(/The browser blocks notifications for this page/)).toBeTruthy();
    expect(box.checked).toBe(false);
    expect(box.getAttribute('aria-describedby')).toMatch(/refused/);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(backend.view.settings.notifications).toBe(false);
  });

  it('is not offered in the desktop app, which always notifies from main', async () => {
    browserAnswers('granted');
    const { dialog } = await openSettings('electron');
    expect(within(dialog).queryByRole('checkbox', { name: 'Notifications' })).toBeNull();
  });
});
