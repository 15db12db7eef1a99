import { describe, expect, it } from 'vitest';
import type { TranscriptItem } from '../../../shared/transcript';
import { MemoryBackend } from '../test-support/memory-backend';
import { createWaypointStore } from './create-store';

const T = '2025-01-01T00:00:00.000Z';
const message = (n: number): TranscriptItem => ({ id: `m${n}`, kind: 'user', text: `Message ${n}`, createdAt: T });

/** A 25-message chat behind a backend that pages by 5, opened. */
async function openLongChat() {
  const backend = new MemoryBackend({ pageSize: 5 });
  backend.addChat('s1', 'Long', { transcript: Array.from({ length: 25 }, (_, n) => message(n)) });
  const store = createWaypointStore(backend);
  await store.getState().openSession('s1');
  const held = () => store.getState().transcripts.s1!;
  const calls = () => backend.log.filter((c) => c.name === 'getTranscriptPage').map((c) => c.input);
  return { backend, store, held, calls };
}

describe('paged sessions in the store', () => {
  it('opens a chat with its last page and how many items come before it', async () => {
    const { held } = await openLongChat();
    expect(held().olderItems).toBe(20);
    expect(held().items.map((i) => i.id)).toEqual(['m20', 'm21', 'm22', 'm23', 'm24']);
  });

  it('loads the page above what it holds, then everything (Home), saying meanwhile that it is loading', async () => {
    const { store, held, calls } = await openLongChat();
    const loading = store.getState().loadOlder('s1', { kind: 'page' });
    expect(store.getState().loadingOlder.s1).toBe(true);
    // Asking for a page again while one is on its way asks for nothing more.
    await store.getState().loadOlder('s1', { kind: 'page' });
    await loading;
    expect(store.getState().loadingOlder.s1).toBeUndefined();
    expect(held().olderItems).toBe(15);
    expect(held().items[0]?.id).toBe('m15');
    expect(calls()).toEqual([{ sessionId: 's1', beforeItemId: 'm20' }]);

    await store.getState().loadOlder('s1', { kind: 'all' });
    expect(held().olderItems).toBe(0);
    expect(held().items).toHaveLength(25);
    expect(calls().at(-1)).toEqual({ sessionId: 's1', beforeItemId: 'm15', limit: 15 });
    // Nothing left above: no more calls.
    await store.getState().loadOlder('s1', { kind: 'page' });
    expect(calls()).toHaveLength(2);
  });

  it('a want made while a page is on its way is carried out after it (find in chat reaching further up)', async () => {
    const { store, held, calls } = await openLongChat();
    const first = store.getState().loadOlder('s1', { kind: 'page' });
    void store.getState().loadOlder('s1', { kind: 'through', itemId: 'm3' });
    await first;
    expect(held().olderItems).toBe(3);
    expect(calls().at(-1)).toEqual({ sessionId: 's1', beforeItemId: 'm15', throughItemId: 'm3' });
  });

  it('revealing an item not loaded yet loads down to it (find in chat)', async () => {
    const { store, held, calls } = await openLongChat();
    store.getState().revealItem('m7');
    expect(store.getState().reveal).toMatchObject({ sessionId: 's1', itemId: 'm7' });
    await expect.poll(() => held().olderItems).toBe(7);
    expect(calls()).toEqual([{ sessionId: 's1', beforeItemId: 'm20', throughItemId: 'm7' }]);
    // Held already: nothing is asked.
    store.getState().revealItem('m9');
    expect(calls()).toHaveLength(1);
  });

  it('an item no longer in the chat (an edit cut it while the page was asked for): the chat is opened again', async () => {
    const { backend, store, held } = await openLongChat();
    const chat = backend.chats.get('s1')!;
    chat.transcript.splice(12); // main cut the chat at m12 and this tab has not heard yet
    await store.getState().loadOlder('s1', { kind: 'page' });
    expect(held().items.map((i) => i.id)).toEqual(['m7', 'm8', 'm9', 'm10', 'm11']);
    expect(held().olderItems).toBe(7);
  });

  it('an event that finds the window out of step with main loads the chat again', async () => {
    const { backend, store, held } = await openLongChat();
    const chat = backend.chats.get('s1')!;
    chat.transcript.push(message(25), message(26));
    // Only the second arrives (the first was missed): its position says so.
    store.getState().upsertItem('s1', message(26), 26);
    await expect.poll(() => held().stale).toBeUndefined();
    expect(held().items.map((i) => i.id)).toEqual(['m22', 'm23', 'm24', 'm25', 'm26']);
  });
});
