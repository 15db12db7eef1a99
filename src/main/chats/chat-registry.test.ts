import { describe, expect, it } from 'vitest';
import type { WaypointEvent } from '../../shared/contract';
import type { TranscriptItem } from '../../shared/transcript';
import { PagedItems } from '../store/paging/paged-items';
import { ChatRegistry } from './chat-registry';

const at = '2026-01-01T00:00:00.000Z';
const user = (id: string): TranscriptItem => ({ id, kind: 'user', text: id, createdAt: at });
const reply = (id: string, text = ''): TranscriptItem => ({ id, kind: 'assistant', text, status: 'streaming', createdAt: at });

function chatWithEvents() {
  const chats = new ChatRegistry(() => new PagedItems());
  const fired: WaypointEvent[] = [];
  chats.onEvent((event) => fired.push(event));
  const { id } = chats.create(null);
  const session = chats.require(id);
  const publish = (event: WaypointEvent) => chats.publish(session, event);
  return { id, session, fired, publish };
}

describe('ChatRegistry.publish stamps where each event lands (paged sessions)', () => {
  it("gives a new item and a changed one their position in the chat's transcript", () => {
    const { id, fired, publish } = chatWithEvents();
    publish({ type: 'transcript_item', sessionId: id, item: user('u1') });
    publish({ type: 'transcript_item', sessionId: id, item: reply('a1') });
    publish({ type: 'transcript_item', sessionId: id, item: { id: 'u1', kind: 'user', text: 'changed', createdAt: at } });
    expect(fired.filter((e) => e.type === 'transcript_item').map((e) => (e.type === 'transcript_item' ? [e.item.id, e.index] : null))).toEqual([
      ['u1', 0],
      ['a1', 1],
      ['u1', 0],
    ]);
  });

  it("gives a delta the length of the text it extends, and a cut where it began (the chat's new length)", () => {
    const { id, session, fired, publish } = chatWithEvents();
    publish({ type: 'transcript_item', sessionId: id, item: user('u1') });
    publish({ type: 'transcript_item', sessionId: id, item: reply('a1', 'He') });
    publish({ type: 'message_delta', sessionId: id, itemId: 'a1', text: 'llo' });
    publish({ type: 'message_delta', sessionId: id, itemId: 'a1', text: '!' });
    publish({ type: 'transcript_item', sessionId: id, item: user('u2') });
    publish({ type: 'chat_rewound', sessionId: id, fromItemId: 'a1', planDropped: false });
    expect(fired.filter((e) => e.type === 'message_delta')).toMatchObject([{ offset: 2 }, { offset: 5 }]);
    expect(fired.at(-1)).toMatchObject({ type: 'chat_rewound', fromItemId: 'a1', index: 1 });
    expect(session.itemCount).toBe(1);
  });

  it('leaves the position out where there is none: a cut of an item the chat does not hold, a delta for no message', () => {
    const { id, fired, publish } = chatWithEvents();
    publish({ type: 'chat_rewound', sessionId: id, fromItemId: 'nowhere', planDropped: false });
    publish({ type: 'message_delta', sessionId: id, itemId: 'nowhere', text: 'x' });
    expect(fired.slice(-2).map((e) => 'index' in e || 'offset' in e)).toEqual([false, false]);
  });
});
