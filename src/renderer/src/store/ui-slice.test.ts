import { describe, expect, it } from 'vitest';
import { MemoryBackend } from '../test-support/memory-backend';
import { createWaypointStore } from './create-store';

describe('ui slice: reveal', () => {
  it('starts with nothing to reveal, and every revealItem is a new request, also for the same item', () => {
    const store = createWaypointStore(new MemoryBackend());
    expect(store.getState().reveal).toBeNull();
    store.getState().revealItem('a1');
    expect(store.getState().reveal, 'no chat open: nothing to reveal').toBeNull();
    store.setState({ currentSessionId: 's1', transcripts: { s1: { items: [], olderItems: 0 } } });
    store.getState().revealItem('a1');
    const first = store.getState().reveal;
    expect(first).toMatchObject({ itemId: 'a1' });
    store.getState().revealItem('a1');
    expect(store.getState().reveal).toEqual({ sessionId: 's1', itemId: 'a1', nonce: first!.nonce + 1 });
    store.getState().revealItem('u7');
    expect(store.getState().reveal).toEqual({ sessionId: 's1', itemId: 'u7', nonce: first!.nonce + 2 });
  });
});

describe('ui slice: transcript disclosures', () => {
  it('keeps each disclosure\'s state by key; a reveal opens it once per nonce', () => {
    const store = createWaypointStore(new MemoryBackend());
    const open = (key: string) => store.getState().disclosures[key]?.open ?? false;
    expect(open('th1')).toBe(false);
    store.getState().setDisclosure('th1', true);
    store.getState().setDisclosure('k1', true);
    store.getState().setDisclosure('k1', false);
    expect([open('th1'), open('k1')]).toEqual([true, false]);

    store.getState().openForReveal('g1', 4);
    expect(open('g1')).toBe(true);
    store.getState().setDisclosure('g1', false);
    store.getState().openForReveal('g1', 4); // the same reveal again (its row mounted again): the user's choice stands
    expect(open('g1')).toBe(false);
    store.getState().openForReveal('g1', 5);
    expect(open('g1')).toBe(true);
  });
});

