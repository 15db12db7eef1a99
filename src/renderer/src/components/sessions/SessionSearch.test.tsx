// @vitest-environment happy-dom
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { MemoryBackend } from '../../test-support/memory-backend';
import { mountApp, unmountApps } from '../../test-support/mount-app';

afterEach(unmountApps);

async function searchFor(backend: MemoryBackend, query: string): Promise<HTMLElement> {
  mountApp(backend);
  const chats = await screen.findByRole('navigation', { name: 'Chats' });
  fireEvent.change(within(chats).getByRole('searchbox', { name: 'Search chats' }), { target: { value: query } });
  await waitFor(() => expect(backend.log.some((c) => c.name === 'searchSessions')).toBe(true));
  return chats;
}

describe('chat search results', () => {
  it('no match: one message, for the eye and the screen reader alike', async () => {
    const backend = new MemoryBackend();
    backend.addChat('a', 'Alpha');
    backend.override('searchSessions', () => ({ results: [] }));
    const chats = await searchFor(backend, 'zebra');
    const status = await within(chats).findByRole('status');
    await waitFor(() => expect(status.textContent).toBe('No chats match.'));
    expect(within(chats).queryByText(/chats? found/)).toBeNull();
    expect(within(chats).getAllByText('No chats match.')).toHaveLength(1);
  });

  it('a snippet starts shortly before the match and marks it, so the match is never cut off', async () => {
    const backend = new MemoryBackend();
    backend.addChat('a', 'Alpha');
    const snippet = '…we talked about the release checklist and the changelog before we finally chose the zebra option for the…';
    backend.override('searchSessions', () => ({ results: [{ session: backend.chats.get('a')!.summary, snippet }] }));
    const chats = await searchFor(backend, 'Zebra');
    const results = await within(chats).findByRole('list', { name: 'Search results' });
    const mark = results.querySelector('mark');
    expect(mark?.textContent).toBe('zebra');
    const shown = results.querySelector('.chat-snippet')!.textContent!;
    expect(shown.indexOf('zebra')).toBeLessThan(30);
    expect(shown.startsWith('…')).toBe(true);
    expect(shown.endsWith('option for the…')).toBe(true);
  });
});
