// @vitest-environment happy-dom
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { MemoryBackend } from '../../test-support/memory-backend';
import { mountApp, unmountApps } from '../../test-support/mount-app';

afterEach(unmountApps);

/** `count` chats, "Chat 0" the oldest, one minute apart (the newest is listed first). */
function manyChats(count: number): MemoryBackend {
  const backend = new MemoryBackend();
  for (let n = 0; n < count; n++) backend.addChat(`c${n}`, `Chat ${n}`, { updatedAt: new Date(Date.UTC(2026, 0, 1) + n * 60_000).toISOString() });
  return backend;
}

describe('the chat list with 10,000 chats', () => {
  it('draws only the rows near the view, as one list of items, each chat one button and one Tab stop', async () => {
    mountApp(manyChats(10_000));
    const nav = await screen.findByRole('navigation', { name: 'Chats' });
    await within(nav).findByRole('button', { name: 'Chat 9999' });
    const list = within(nav).getByRole('list');
    const items = within(list).getAllByRole('listitem');
    // The view is 2,000 px of 40 px rows (fake-layout.ts): 50 rows and the buffer, not 10,000.
    expect(items.length).toBeGreaterThanOrEqual(50);
    expect(items.length).toBeLessThan(200);
    expect(nav.querySelectorAll('*').length).toBeLessThan(5_000);
    // Newest first, in order, and only the chat itself is a Tab stop in each row.
    expect(within(items[0]!).getAllByRole('button')[0]!.textContent).toContain('Chat 9999');
    expect(within(items[1]!).getAllByRole('button')[0]!.textContent).toContain('Chat 9998');
    for (const item of items) expect([...item.querySelectorAll('button')].filter((b) => b.tabIndex >= 0)).toHaveLength(1);
  });

  it('moves between chats and a chat’s actions with the arrow keys', async () => {
    mountApp(manyChats(10_000));
    const nav = await screen.findByRole('navigation', { name: 'Chats' });
    const first = await within(nav).findByRole('button', { name: 'Chat 9999' });
    first.focus();
    fireEvent.keyDown(first, { key: 'ArrowDown' });
    expect(document.activeElement).toBe(within(nav).getByRole('button', { name: 'Chat 9998' }));
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowRight' });
    expect((document.activeElement as HTMLElement).getAttribute('aria-label')).toBe('Pin chat');
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowUp' });
    expect(document.activeElement).toBe(first);
  });

  it('opens a chat clicked in the list', async () => {
    const backend = manyChats(10_000);
    mountApp(backend);
    const nav = await screen.findByRole('navigation', { name: 'Chats' });
    fireEvent.click(await within(nav).findByRole('button', { name: 'Chat 9990' }));
    await waitFor(() => expect(within(nav).getByRole('button', { name: 'Chat 9990' }).getAttribute('aria-current')).toBe('page'));
  });
});
