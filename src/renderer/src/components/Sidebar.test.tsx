// @vitest-environment happy-dom
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { plan, step } from '../test-support/fixtures';
import { MemoryBackend } from '../test-support/memory-backend';
import { mountApp, unmountApps } from '../test-support/mount-app';

beforeEach(() => localStorage.clear());
afterEach(unmountApps);

function twoChats() {
  const backend = new MemoryBackend();
  backend.addChat('a', 'Alpha', { updatedAt: '2025-01-03T00:00:00.000Z', plan: plan([step(1, 'Read', 'completed'), step(2, 'Write', 'failed'), step(3, 'Skip me', 'skipped'), step(4, 'Later')]) });
  backend.addChat('b', 'Beta', { updatedAt: '2025-01-02T00:00:00.000Z' });
  return backend;
}

// In a narrow window the CSS hides the sidebar until the "Chats" button opens it; here we check
// the button's contract and the drawer's keyboard behaviour (the e2e layout test sees the CSS).
describe('the Chats menu button and the chats drawer', () => {
  it('is a button named "Chats" with aria-expanded that controls the chats navigation', async () => {
    mountApp(twoChats());
    const button = await screen.findByRole('button', { name: 'Chats' });
    const nav = screen.getByRole('navigation', { name: 'Chats' });
    expect(button.getAttribute('aria-expanded')).toBe('false');
    expect(button.getAttribute('aria-controls')).toBe(nav.id);
    expect(button.querySelector('svg')).toBeTruthy();
  });

  it('moves focus into the drawer when opened; Escape closes it and gives focus back to the button', async () => {
    mountApp(twoChats());
    const button = await screen.findByRole('button', { name: 'Chats' });
    button.focus();
    fireEvent.click(button);
    expect(button.getAttribute('aria-expanded')).toBe('true');
    const nav = screen.getByRole('navigation', { name: 'Chats' });
    await waitFor(() => expect(document.activeElement).toBe(within(nav).getByRole('button', { name: 'New chat' })));
    fireEvent.keyDown(document.activeElement!, { key: 'Escape' });
    expect(button.getAttribute('aria-expanded')).toBe('false');
    await waitFor(() => expect(document.activeElement).toBe(button));
  });

  it('closes when a chat or New chat is chosen, and when the backdrop is clicked', async () => {
    const backend = twoChats();
    const store = mountApp(backend);
    const button = await screen.findByRole('button', { name: 'Chats' });
    const nav = screen.getByRole('navigation', { name: 'Chats' });
    fireEvent.click(button);
    fireEvent.click(within(nav).getByRole('button', { name: 'Beta' }));
    await waitFor(() => expect(store.getState().currentSessionId).toBe('b'));
    expect(button.getAttribute('aria-expanded')).toBe('false');

    fireEvent.click(button);
    fireEvent.click(document.querySelector('.sidebar-backdrop')!);
    expect(button.getAttribute('aria-expanded')).toBe('false');

    fireEvent.click(button);
    fireEvent.click(within(nav).getByRole('button', { name: 'New chat' }));
    await waitFor(() => expect(store.getState().currentSessionId).toMatch(/^s-new-/));
    expect(button.getAttribute('aria-expanded')).toBe('false');
  });
});

describe('icons', () => {
  it('are SVG, never emoji or rare symbols, and the controls keep their names', async () => {
    mountApp(twoChats());
    await screen.findByRole('region', { name: 'Task plan' });
    const nav = screen.getByRole('navigation', { name: 'Chats' });
    for (const name of ['Delete chat', 'Rename chat']) {
      const buttons = within(nav).getAllByRole('button', { name });
      expect(buttons).toHaveLength(2);
      for (const b of buttons) expect(b.querySelector('svg[aria-hidden="true"]')).toBeTruthy();
    }
    expect(document.body.textContent).not.toMatch(/\p{Extended_Pictographic}|[✎✓✗○⤼▾▸☰]/u);
  });
});
