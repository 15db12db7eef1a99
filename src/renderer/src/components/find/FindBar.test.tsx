// @vitest-environment happy-dom
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TranscriptItem } from '../../../../shared/transcript';
import { installShortcuts } from '../../keyboard/install-shortcuts';
import { MemoryBackend } from '../../test-support/memory-backend';
import { mountApp, unmountApps } from '../../test-support/mount-app';
import type { WaypointStore } from '../../store/types';

// The find bar in the whole App on the in-memory backend (which searches as main does), driven
// from the keyboard as a person would.

const at = '2025-01-01T00:00:00.000Z';
const user = (id: string, text: string): TranscriptItem => ({ id, createdAt: at, kind: 'user', text });
const reply = (id: string, text: string): TranscriptItem => ({ id, createdAt: at, kind: 'assistant', text, status: 'done' });
const CHAT = [user('u1', 'Tell me about apples'), reply('a1', 'Apples grow on trees; an apple a day.'), user('u2', 'And pears?'), reply('a2', 'Pears too.')];

let uninstall: (() => void) | null = null;
beforeEach(() => {
  localStorage.clear();
});
afterEach(() => {
  uninstall?.();
  uninstall = null;
  unmountApps();
  vi.restoreAllMocks();
});

async function mount(shell: 'web' | 'electron' = 'web'): Promise<{ backend: MemoryBackend; store: WaypointStore }> {
  const backend = new MemoryBackend();
  backend.addChat('c1', 'Fruit', { transcript: CHAT.map((i) => ({ ...i })) });
  backend.override('getAppInfo', () => ({ shell, version: '0.0.0-test', workspace: null }));
  const store = mountApp(backend);
  uninstall = installShortcuts(store);
  await screen.findByText('Pears too.');
  await waitFor(() => expect(store.getState().appInfo?.shell).toBe(shell));
  return { backend, store };
}

const press = (target: Element | Document, key: string, init: KeyboardEventInit = {}) =>
  act(() => {
    fireEvent.keyDown(target, { key, ...init });
  });
const bar = () => screen.queryByRole('search', { name: 'Find in chat' });
const status = () => within(bar()!).getByRole('status');
const finds = (backend: MemoryBackend) => backend.log.filter((c) => c.name === 'findInChat');

describe('Find in chat', () => {
  it('Ctrl+Shift+F opens the bar; typing asks main once; Enter and Shift+Enter step through the matches; Escape closes it', async () => {
    const { backend, store } = await mount();
    const message = screen.getByRole('textbox', { name: 'Message' });
    message.focus();
    await press(message, 'F', { ctrlKey: true, shiftKey: true, code: 'KeyF' });
    const box = within(bar()!).getByRole('textbox', { name: 'Find in chat' });
    expect(document.activeElement).toBe(box);

    // Three quick keys: one question to main, after the pause.
    for (const text of ['a', 'ap', 'apple']) fireEvent.change(box, { target: { value: text } });
    await waitFor(() => expect(status().textContent).toBe('1 of 3'));
    expect(finds(backend)).toEqual([{ name: 'findInChat', input: { sessionId: 'c1', query: 'apple' } }]);
    expect(store.getState().reveal?.itemId).toBe('u1');
    // The transcript brings it into view (its own tests; the e2e sees it on screen).

    await press(box, 'Enter');
    expect(status().textContent).toBe('2 of 3');
    expect(store.getState().reveal?.itemId).toBe('a1');
    await press(box, 'Enter');
    expect(status().textContent).toBe('3 of 3');
    await press(box, 'Enter');
    expect(status().textContent).toBe('1 of 3'); // wraps around
    await press(box, 'Enter', { shiftKey: true });
    expect(status().textContent).toBe('3 of 3');
    expect(store.getState().reveal?.itemId).toBe('a1');

    await press(box, 'Escape');
    expect(bar()).toBeNull();
    expect(document.activeElement).toBe(message);
    expect(store.getState().findResult).toBeNull();
  });

  it('the header button opens it, the buttons step, "No matches" disables them, and Escape gives the focus back to the button', async () => {
    const { store } = await mount();
    const button = screen.getByRole('button', { name: 'Find in chat' });
    button.focus();
    fireEvent.click(button);
    const box = within(bar()!).getByRole('textbox', { name: 'Find in chat' });
    fireEvent.change(box, { target: { value: 'PEARS' } });
    await waitFor(() => expect(status().textContent).toBe('1 of 2'));
    fireEvent.click(within(bar()!).getByRole('button', { name: 'Next match' }));
    expect(status().textContent).toBe('2 of 2');
    expect(store.getState().reveal?.itemId).toBe('a2');
    fireEvent.click(within(bar()!).getByRole('button', { name: 'Previous match' }));
    expect(status().textContent).toBe('1 of 2');

    fireEvent.change(box, { target: { value: 'kiwi' } });
    await waitFor(() => expect(status().textContent).toBe('No matches'));
    expect(within(bar()!).getByRole('button', { name: 'Next match' })).toHaveProperty('disabled', true);
    expect(within(bar()!).getByRole('button', { name: 'Previous match' })).toHaveProperty('disabled', true);

    await press(box, 'Escape');
    expect(bar()).toBeNull();
    expect(document.activeElement).toBe(button);
  });

  it('Ctrl+F stays the browser’s in the web shell and finds in chat in the desktop app', async () => {
    await mount('web');
    const web = new KeyboardEvent('keydown', { key: 'f', code: 'KeyF', ctrlKey: true, bubbles: true, cancelable: true });
    await act(() => void document.body.dispatchEvent(web));
    expect(web.defaultPrevented).toBe(false);
    expect(bar()).toBeNull();
    uninstall?.();
    uninstall = null;
    unmountApps();

    await mount('electron');
    await press(document.body, 'f', { ctrlKey: true, code: 'KeyF' });
    expect(bar()).not.toBeNull();
    expect(document.activeElement).toBe(within(bar()!).getByRole('textbox', { name: 'Find in chat' }));
  });

  it('the shortcuts list names the keys that work here', async () => {
    await mount('electron');
    await press(document.body, '/', { ctrlKey: true, code: 'Slash' });
    const dialog = screen.getByRole('dialog', { name: 'Keyboard shortcuts' });
    const row = within(dialog).getByRole('rowheader', { name: 'Find in chat' }).closest('tr')!;
    expect(row.textContent).toMatch(/Ctrl\+Shift\+F or Ctrl\+F/);
  });
});
