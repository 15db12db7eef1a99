import { describe, expect, it } from 'vitest';
import { MemoryBackend } from '../test-support/memory-backend';
import { mainLikeNewChats } from '../test-support/main-like-new-chats';
import { connectStore } from './connect';
import { createWaypointStore } from './create-store';
import type { Schedule } from './frame-schedule';

// From an empty window: type, Send, and New chat in the same moment. Main hands back its newest
// empty chat for New chat; the chat the Send goes to is still empty until main has put the
// message in, so the window must not take it for the new chat.
const immediately: Schedule = (flush) => (flush(), () => undefined);

async function until(check: () => boolean): Promise<void> {
  for (let i = 0; !check(); i++) {
    if (i > 400) throw new Error('condition not met');
    await new Promise((r) => setTimeout(r, 5));
  }
}

async function emptyWindow() {
  const backend = new MemoryBackend(); // no chats yet: the first is made before the window shows
  const store = createWaypointStore(backend);
  const off = connectStore(backend, store, { schedule: immediately, bookkeepingSchedule: immediately, retryDelayMs: () => 10 });
  await until(() => store.getState().load.status === 'ready');
  const first = store.getState().currentSessionId!;
  expect(first).toBeTruthy();
  return { backend, store, off, first };
}

describe('New chat pressed right after Send from an empty window', () => {
  it('is a second, empty chat shown in the window; the message goes to the first chat, once', async () => {
    const { backend, store, off, first } = await emptyWindow();
    const main = mainLikeNewChats(backend);
    const sending = store.getState().sendMessage('Tidy the notes');
    const second = store.getState().newChat();
    expect(store.getState().currentSessionId).toBeNull(); // the new chat shows at once
    main.release();
    expect(await sending).toEqual({ ok: true });
    expect(await second).toEqual({ ok: true });
    const shown = store.getState().currentSessionId;
    expect(shown).not.toBe(first);
    expect(shown).toBe('made-1');
    expect(store.getState().sessions.map((s) => s.id).sort()).toEqual([first, 'made-1'].sort());
    expect(backend.chats.get('made-1')!.transcript).toEqual([]);
    expect(backend.log.filter((c) => c.name === 'sendMessage').map((c) => c.input)).toEqual([{ sessionId: first, text: 'Tidy the notes' }]);
    expect(store.getState().transcripts['made-1']?.items ?? []).toEqual([]);
    off();
  });

  it('pressed twice while the message is on its way: still one new chat, not two and not the first', async () => {
    const { backend, store, off, first } = await emptyWindow();
    const main = mainLikeNewChats(backend);
    const sending = store.getState().sendMessage('Tidy the notes');
    const presses = [store.getState().newChat(), store.getState().newChat()];
    main.release();
    await sending;
    expect(await Promise.all(presses)).toEqual([{ ok: true }, { ok: true }]);
    expect(store.getState().currentSessionId).toBe('made-1');
    expect(main.made()).toBe(1);
    expect(backend.chats.get(first)!.transcript.map((i) => i.kind)).toEqual(['user']);
    off();
  });

  it('a Send refused by main leaves its chat empty: New chat then shows that chat, its words kept as its draft', async () => {
    const { backend, store, off, first } = await emptyWindow();
    let refuse = () => {};
    const refused = new Promise<void>((r) => (refuse = r));
    mainLikeNewChats(backend);
    backend.override('sendMessage', async () => {
      await refused;
      throw new Error('Claude is still working.');
    });
    store.getState().saveDraft(first, 'Tidy the notes');
    const sending = store.getState().sendMessage('Tidy the notes');
    const second = store.getState().newChat();
    refuse();
    expect((await sending).ok).toBe(false);
    expect(await second).toEqual({ ok: true });
    expect(store.getState().currentSessionId).toBe(first); // nothing was sent: the empty chat is the new one
    expect(store.getState().draftOf(first)).toBe('Tidy the notes');
    off();
  });
});
