import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { TranscriptItem } from '../../shared/transcript';
import { UserFacingError } from '../common/errors';
import { PagedItems } from '../store/paging/paged-items';
import { ChatSession } from './chat-session';
import { lastPage, pageBefore, pageEndingAt, type PageSize } from './transcript-pages';

const SESSION = 's1';

function chatOf(texts: readonly string[]): ChatSession {
  const chat = new ChatSession({ id: SESSION, title: 't', createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z' }, new PagedItems());
  texts.forEach((text, i) => {
    const item: TranscriptItem = { id: `i${i}`, kind: 'user', text, createdAt: '2026-01-01T00:00:00.000Z' };
    chat.apply({ type: 'transcript_item', sessionId: SESSION, item });
  });
  return chat;
}

const ids = (items: readonly TranscriptItem[]) => items.map((i) => i.id);
const small: PageSize = { maxItems: 5, maxChars: 1_000_000, minItems: 2 };

describe('pages of a transcript', () => {
  it('sends a short chat whole, and the end of a long one with how many items come before it', () => {
    expect(lastPage(chatOf(['a', 'b']), small)).toMatchObject({ olderItems: 0 });
    expect(ids(lastPage(chatOf(['a', 'b']), small).items)).toEqual(['i0', 'i1']);
    const long = lastPage(chatOf(Array.from({ length: 12 }, (_, i) => `m${i}`)), small);
    expect(ids(long.items)).toEqual(['i7', 'i8', 'i9', 'i10', 'i11']);
    expect(long.olderItems).toBe(7);
    expect(lastPage(chatOf([]), small)).toEqual({ items: [], olderItems: 0 });
  });

  it('stops at the size in characters, but never below the least number of items', () => {
    const big = 'x'.repeat(400);
    const chat = chatOf([big, big, big, big, big, big]);
    const bySize = pageEndingAt(chat, 6, { maxItems: 6, maxChars: 1_500, minItems: 1 });
    expect(ids(bySize.items)).toEqual(['i3', 'i4', 'i5']);
    expect(bySize.olderItems).toBe(3);
    const atLeast = pageEndingAt(chat, 6, { maxItems: 6, maxChars: 10, minItems: 2 });
    expect(ids(atLeast.items)).toEqual(['i4', 'i5']);
  });

  it('pages back from an item, exactly `limit` of them when asked, and through an older item', () => {
    const chat = chatOf(Array.from({ length: 20 }, (_, i) => `m${i}`));
    expect(pageBefore(chat, { beforeItemId: 'i15' }, small)).toMatchObject({ olderItems: 10 });
    expect(ids(pageBefore(chat, { beforeItemId: 'i15' }, small).items)).toEqual(['i10', 'i11', 'i12', 'i13', 'i14']);
    expect(ids(pageBefore(chat, { beforeItemId: 'i3' }, small).items)).toEqual(['i0', 'i1', 'i2']);
    expect(pageBefore(chat, { beforeItemId: 'i0' }, small)).toEqual({ items: [], olderItems: 0 });
    // Home: everything above.
    expect(pageBefore(chat, { beforeItemId: 'i15', limit: 15 }, small).olderItems).toBe(0);
    expect(pageBefore(chat, { beforeItemId: 'i15', limit: 15 }, small).items).toHaveLength(15);
    // Find in chat: down to the match's item, wherever it is.
    const through = pageBefore(chat, { beforeItemId: 'i15', throughItemId: 'i2' }, small);
    expect(through.olderItems).toBe(2);
    expect(ids(through.items)).toEqual(ids(chat.itemsBetween(2, 15)));
    // An item already held asks for nothing more than a page.
    expect(pageBefore(chat, { beforeItemId: 'i15', throughItemId: 'i17' }, small).olderItems).toBe(10);
  });

  it('refuses an item that is no longer in the chat (an edit cut it), saying so', () => {
    const chat = chatOf(['a', 'b', 'c']);
    chat.apply({ type: 'chat_rewound', sessionId: SESSION, fromItemId: 'i1', planDropped: false });
    const refused = () => pageBefore(chat, { beforeItemId: 'i2' });
    expect(refused).toThrow(UserFacingError);
    expect(refused).toThrow(/gone.*Open the chat again/);
    expect(() => pageBefore(chat, { beforeItemId: 'i0', throughItemId: 'i2' })).toThrow(/gone/);
  });

  it('pages from the end back to the first item give the whole transcript, each item once, in order', () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ maxLength: 30 }), { maxLength: 60 }),
        fc.record({ maxItems: fc.integer({ min: 1, max: 12 }), maxChars: fc.integer({ min: 1, max: 600 }), minItems: fc.integer({ min: 1, max: 4 }) }),
        (texts, size) => {
          const chat = chatOf(texts);
          let page = lastPage(chat, size);
          const held = [...page.items];
          expect(page.olderItems + page.items.length).toBe(texts.length);
          while (page.olderItems > 0) {
            page = pageBefore(chat, { beforeItemId: held[0]!.id }, size);
            expect(page.items.length).toBeGreaterThan(0);
            expect(page.items.length).toBeLessThanOrEqual(size.maxItems);
            held.unshift(...page.items);
            expect(page.olderItems + held.length).toBe(texts.length);
          }
          expect(held).toEqual(chat.transcript);
        },
      ),
    );
  });
});
