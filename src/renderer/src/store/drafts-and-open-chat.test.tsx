// @vitest-environment happy-dom
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MemoryBackend } from '../test-support/memory-backend';
import { mountApp, unmountApps } from '../test-support/mount-app';
import { createWaypointStore } from './create-store';
import { rememberedOpenChat, rememberOpenChat } from './open-chat-memory';

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
});
afterEach(unmountApps);

function twoChats() {
  const backend = new MemoryBackend();
  backend.addChat('new', 'Newest', { updatedAt: '2025-01-03T00:00:00.000Z' });
  backend.addChat('old', 'Older', { updatedAt: '2025-01-01T00:00:00.000Z' });
  return backend;
}

const box = () => screen.getByRole('textbox', { name: 'Message' }) as HTMLTextAreaElement;
const open = async (title: string) => {
  fireEvent.click(within(screen.getByRole('navigation', { name: 'Chats' })).getByRole('button', { name: title }));
  await waitFor(() => expect(screen.getByRole('heading', { level: 1 }).textContent).toBe(title));
};

/** newSession held until `release()`: each call makes chat `made-N` (N: its number), newest last. */
function heldNewSessions(backend: MemoryBackend): { release(): void; asked(): number } {
  let release = () => {};
  const made = new Promise<void>((resolve) => (release = resolve));
  let asked = 0;
  backend.override('newSession', async () => {
    const id = `made-${++asked}`;
    await made;
    backend.addChat(id, 'New chat', { updatedAt: `2025-01-0${4 + asked}T00:00:00.000Z` });
    return (await backend.call('listSessions', {})).sessions.find((s) => s.id === id)!;
  });
  return { release: () => release(), asked: () => asked };
}

describe('the open chat and drafts', () => {
  it('a chat picked while main is still making a new one stays open; the new chat is listed, with what was typed', async () => {
    const backend = twoChats();
    const store = createWaypointStore(backend);
    await store.getState().openSession('new');
    let release = () => {};
    const made = new Promise<void>((resolve) => (release = resolve));
    backend.override('newSession', async () => {
      await made;
      backend.addChat('made', 'New chat', { updatedAt: '2025-01-04T00:00:00.000Z' });
      return (await backend.call('listSessions', {})).sessions.find((s) => s.id === 'made')!;
    });
    const creating = store.getState().newChat();
    expect(store.getState().currentSessionId).toBeNull(); // the new, empty chat shows at once
    store.getState().setNewChatDraft('half a thought');
    await store.getState().openSession('old');
    release();
    expect(await creating).toEqual({ ok: true });
    expect(store.getState().currentSessionId).toBe('old');
    expect(store.getState().sessions.map((s) => s.id)).toContain('made');
    expect(store.getState().draftOf('made')).toBe('half a thought');
  });

  it('a message sent while main is still making the new chat goes to that chat: no second chat is made', async () => {
    const backend = twoChats();
    const store = createWaypointStore(backend);
    await store.getState().openSession('new');
    const making = heldNewSessions(backend);
    const creating = store.getState().newChat();
    store.getState().setNewChatDraft('Beta task'); // typed in the new chat, then Send
    const sending = store.getState().sendMessage('Beta task');
    making.release();
    expect(await creating).toEqual({ ok: true });
    expect(await sending).toEqual({ ok: true });
    expect(making.asked()).toBe(1);
    expect(store.getState().currentSessionId).toBe('made-1');
    expect(backend.log.filter((c) => c.name === 'sendMessage').map((c) => c.input)).toEqual([{ sessionId: 'made-1', text: 'Beta task' }]);
    // The text went as the message: it is not left behind as the new chat's draft, to be sent twice.
    expect(store.getState().draftOf('made-1')).toBe('');
  });

  it('New chat pressed while a Send from an empty window makes its chat is a second chat: the message goes to the first, the window shows the second', async () => {
    const backend = twoChats();
    const store = createWaypointStore(backend);
    const making = heldNewSessions(backend);
    const sending = store.getState().sendMessage('Tidy the notes'); // no chat open: Send makes one
    const second = store.getState().newChat(); // then the person asks for another chat
    making.release();
    expect(await sending).toEqual({ ok: true });
    expect(await second).toEqual({ ok: true });
    expect(making.asked()).toBe(2);
    expect(backend.log.filter((c) => c.name === 'sendMessage').map((c) => c.input)).toEqual([{ sessionId: 'made-1', text: 'Tidy the notes' }]);
    expect(store.getState().currentSessionId).toBe('made-2');
  });

  it('reopens the chat the tab had open, not the newest one; without one, the newest', async () => {
    mountApp(twoChats(), { preferredChat: 'old' });
    await waitFor(() => expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Older'));
    unmountApps();
    mountApp(twoChats(), { preferredChat: 'deleted-meanwhile' });
    await waitFor(() => expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Newest'));
  });

  it('remembers the open chat for the tab as it changes', async () => {
    const store = createWaypointStore(twoChats());
    const off = rememberOpenChat(store);
    await store.getState().openSession('old');
    expect(rememberedOpenChat()).toBe('old');
    await store.getState().openSession('new');
    expect(rememberedOpenChat()).toBe('new');
    off();
  });

  it('keeps a draft per chat across chat switches and a reload; it never leaks; sending clears it', async () => {
    const backend = twoChats();
    const store = mountApp(backend);
    await screen.findByRole('textbox', { name: 'Message' });
    expect(document.activeElement).toBe(box()); // the message box has the focus on load
    fireEvent.change(box(), { target: { value: 'draft for the newest chat' } });
    await open('Older');
    expect(box().value).toBe('');
    fireEvent.change(box(), { target: { value: 'draft for the older chat' } });
    await open('Newest');
    expect(box().value).toBe('draft for the newest chat');

    store.getState().flushDrafts(); // the page's pagehide, as in a reload
    unmountApps(); // a reload: a new store reads what was stored
    mountApp(backend, { preferredChat: 'old' });
    await waitFor(() => expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Older'));
    expect(box().value).toBe('draft for the older chat');

    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(box().value).toBe(''));
    expect(backend.chats.get('old')?.transcript.at(-1)).toMatchObject({ kind: 'user', text: 'draft for the older chat' });
    unmountApps();
    mountApp(backend, { preferredChat: 'old' });
    await waitFor(() => expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Older'));
    expect(box().value).toBe('');
  });
});

describe('New chat while main is still making it', () => {
  it('shows the new chat at once; what is typed meanwhile stays in the new chat, never in the one that was open', async () => {
    const backend = twoChats();
    let release = () => {};
    const made = new Promise<void>((r) => (release = r));
    mountApp(backend);
    await waitFor(() => expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Newest'));
    fireEvent.change(box(), { target: { value: 'kept for the newest chat' } });
    backend.override('newSession', async () => {
      await made;
      backend.addChat('fresh', 'New chat', { updatedAt: new Date().toISOString() });
      return backend.chats.get('fresh')!.summary;
    });
    fireEvent.click(within(screen.getByRole('navigation', { name: 'Chats' })).getAllByRole('button', { name: 'New chat' })[0]!);
    await waitFor(() => expect(box().value).toBe(''));
    fireEvent.change(box(), { target: { value: 'typed right after the click' } });
    release();
    await waitFor(() => expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('New chat'));
    await waitFor(() => expect(backend.log.some((c) => c.name === 'getSession' && (c.input as { sessionId: string }).sessionId === 'fresh')).toBe(true));
    expect(box().value).toBe('typed right after the click');
    await open('Newest');
    expect(box().value).toBe('kept for the newest chat');
  });
});
