// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { Profiler } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { createWaypointStore } from '../../store/create-store';
import { StoreProvider } from '../../store/store-context';
import { MemoryBackend } from '../../test-support/memory-backend';
import { session } from '../../test-support/fixtures';
import { NeedsYouButton } from './NeedsYou';
import { waitingChats } from './waiting-chats';

afterEach(cleanup);

/** A store with 200 chats, one waiting on Claude's question and one streaming a reply. */
function storeWithChats() {
  const store = createWaypointStore(new MemoryBackend());
  store.getState().setSessions(Array.from({ length: 200 }, (_, i) => session(`c${i}`, `Chat ${i}`)));
  store.getState().setQuestion('c1', { id: 'q1', sessionId: 'c1', toolUseId: 't1', question: 'Which file?', options: ['a.ts'], allowText: false, createdAt: '2025-01-05T00:00:00.000Z' });
  // Chat 2 is the open chat, its reply streaming.
  store.getState().applySnapshot({
    session: session('c2', 'Chat 2'),
    transcript: [{ id: 'm1', kind: 'assistant', text: '', status: 'streaming', createdAt: '2025-01-05T00:00:00.000Z' } as never],
    olderItems: 0,
    runState: { status: 'running', phase: 'streaming' },
    plan: null,
  });
  return store;
}

describe('the "Needs you" list under streamed frames', () => {
  it('is the same list, not computed again, while only transcripts change', () => {
    const store = storeWithChats();
    const before = waitingChats(store.getState());
    expect(before.map((c) => c.id)).toEqual(['c1']);
    const frame = store.getState().transcripts;
    store.getState().appendDelta('c2', 'm1', 'Hello');
    // The frame did change the store (the streamed text), just nothing the list reads.
    expect(store.getState().transcripts).not.toBe(frame);
    expect(waitingChats(store.getState())).toBe(before);
    // A change it reads gives a new list.
    store.getState().setRunState('c3', { status: 'awaiting_approval', requestId: 'r9' });
    expect(waitingChats(store.getState()).map((c) => c.id)).toEqual(['c1', 'c3']);
  });

  it('neither the header button nor the open dialog renders again for 100 streamed frames of another chat', () => {
    const store = storeWithChats();
    let renders = 0;
    render(
      <StoreProvider store={store}>
        <Profiler id="header" onRender={() => renders++}>
          <NeedsYouButton />
        </Profiler>
      </StoreProvider>,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Needs you (1)' }));
    expect(screen.getByRole('listitem', { name: 'Chat 1' })).toBeTruthy();
    const settled = renders;
    const frame = store.getState().transcripts;
    act(() => {
      for (let i = 0; i < 100; i++) store.getState().appendDelta('c2', 'm1', `word ${i} `);
    });
    expect(store.getState().transcripts).not.toBe(frame);
    expect(renders).toBe(settled);
  });
});
