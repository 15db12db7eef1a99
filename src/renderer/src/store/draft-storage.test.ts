import { afterEach, describe, expect, it, vi } from 'vitest';
import { createDraftStorage, DRAFT_PREFIX } from './draft-storage';

/** A Storage with the parts drafts use, and a quota to hit. */
function memoryStorage(quota = Infinity) {
  const map = new Map<string, string>();
  return {
    map,
    get length() {
      return map.size;
    },
    key: (i: number) => [...map.keys()][i] ?? null,
    getItem: (k: string) => map.get(k) ?? null,
    setItem: (k: string, v: string) => {
      if (v.length > quota) throw new DOMException('full', 'QuotaExceededError');
      map.set(k, v);
    },
    removeItem: (k: string) => void map.delete(k),
  };
}

afterEach(() => vi.useRealTimers());

describe('draft storage', () => {
  it('keeps one draft per chat, written a moment after typing stops or at once on flush', () => {
    vi.useFakeTimers();
    const storage = memoryStorage();
    const drafts = createDraftStorage(storage, 300);
    drafts.save('a', 'half a tho');
    drafts.save('a', 'half a thought');
    drafts.save('b', 'other chat');
    expect(storage.map.size).toBe(0); // not on every keystroke
    expect(drafts.load('a')).toBe('half a thought'); // but the page sees it at once
    vi.advanceTimersByTime(300);
    expect(storage.map.get(`${DRAFT_PREFIX}a`)).toBe('half a thought');
    expect(storage.map.get(`${DRAFT_PREFIX}b`)).toBe('other chat');

    drafts.save('a', 'more');
    drafts.flush(); // page hidden / reload
    expect(storage.map.get(`${DRAFT_PREFIX}a`)).toBe('more');
    // A fresh page (a reload) reads them back, each for its own chat only.
    const reloaded = createDraftStorage(storage);
    expect([reloaded.load('a'), reloaded.load('b'), reloaded.load('c')]).toEqual(['more', 'other chat', '']);
  });

  it('forgets a sent draft at once and prunes drafts of chats that are gone', () => {
    const storage = memoryStorage();
    const drafts = createDraftStorage(storage);
    drafts.save('a', 'x');
    drafts.save('gone', 'y');
    drafts.flush();
    drafts.save('a', '');
    expect(storage.map.has(`${DRAFT_PREFIX}a`)).toBe(false);
    storage.setItem('unrelated', 'kept');
    drafts.prune(['a']);
    expect([...storage.map.keys()]).toEqual(['unrelated']);
    expect(drafts.load('gone')).toBe('');
  });

  it('keeps a draft too big for the quota in memory rather than failing', () => {
    const storage = memoryStorage(10);
    const drafts = createDraftStorage(storage);
    drafts.save('a', 'a draft longer than the quota');
    expect(() => drafts.flush()).not.toThrow();
    expect(drafts.load('a')).toBe('a draft longer than the quota');
  });

  it('works without storage at all (disabled by the browser)', () => {
    const drafts = createDraftStorage(null);
    drafts.save('a', 'x');
    drafts.flush();
    drafts.prune([]);
    expect(drafts.load('a')).toBe('');
  });
});
