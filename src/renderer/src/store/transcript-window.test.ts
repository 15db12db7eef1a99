import { describe, expect, it } from 'vitest';
import type { TranscriptItem } from '../../../shared/transcript';
import { type TranscriptWindow, withDelta, withItem, withOlderPage, withRewind, withSnapshot } from './transcript-window';

const T = '2025-01-01T00:00:00.000Z';
const user = (id: string, text = id): TranscriptItem => ({ id, kind: 'user', text, createdAt: T });
const reply = (id: string, text = ''): TranscriptItem => ({ id, kind: 'assistant', text, status: 'streaming', createdAt: T });
const ids = (window: TranscriptWindow) => window.items.map((i) => i.id);

/** Items 10–12 of a chat: 10 older items are in main only. */
const end: TranscriptWindow = { items: [user('u10'), reply('a11', 'Hi'), user('u12')], olderItems: 10 };

describe('a transcript window holding the end of a long chat', () => {
  it('appends a new item, replaces a held one, and ignores a change to one above what it holds', () => {
    expect(ids(withItem(end, user('u13'), 13))).toEqual(['u10', 'a11', 'u12', 'u13']);
    expect(withItem(end, user('u12', 'edited'), 12).items[2]).toMatchObject({ text: 'edited' });
    expect(withItem(end, user('u3', 'changed card'), 3)).toBe(end);
    // A plan-change line derived in the renderer has no index: it is new.
    expect(ids(withItem(end, user('plan:p:v2')))).toEqual(['u10', 'a11', 'u12', 'plan:p:v2']);
  });

  it('an item past a gap is kept, and the window says it is out of step (its chat is loaded again)', () => {
    const gap = withItem(end, user('u20'), 20);
    expect(ids(gap)).toContain('u20');
    expect(gap.stale).toBe(true);
  });

  it('appends streamed text once: text a snapshot already carries is skipped, text past a gap marks it stale', () => {
    expect(withDelta(end, 'a11', ' there', 2).items[1]).toMatchObject({ text: 'Hi there' });
    expect(withDelta(end, 'a11', 'i there', 1).items[1]).toMatchObject({ text: 'Hi there' });
    expect(withDelta(end, 'a11', 'Hi', 0)).toBe(end);
    expect(withDelta(end, 'a11', ' there')).not.toBe(end); // no offset: appended as sent
    expect(withDelta(end, 'a11', 'x', 5).stale).toBe(true);
    expect(withDelta(end, 'gone', 'x', 0)).toBe(end);
  });

  it('a cut inside it keeps what is above; a cut above it leaves nothing held and the window ending there', () => {
    expect(withRewind(end, 'a11', 11)).toEqual({ items: [user('u10')], olderItems: 10 });
    expect(withRewind(end, 'u4', 4)).toEqual({ items: [], olderItems: 4 });
    expect(withRewind(end, 'unknown')).toBe(end);
  });

  it('an older page goes in front only while the window still starts where it was asked from', () => {
    const page = { items: [user('u8'), user('u9')], olderItems: 8 };
    expect(withOlderPage(end, 'u10', page)).toEqual({ items: [user('u8'), user('u9'), ...end.items], olderItems: 8 });
    expect(withOlderPage(withRewind(end, 'u4', 4), 'u10', page)).toEqual({ items: [], olderItems: 4 });
  });

  it('opening the chat again keeps the older pages held when they line up with the new last page', () => {
    const scrolled: TranscriptWindow = { items: [user('u8'), user('u9'), ...end.items], olderItems: 8 };
    const snapshot = { transcript: [user('u12', 'fresh'), user('u13')], olderItems: 12 };
    expect(withSnapshot(scrolled, snapshot)).toEqual({ items: [user('u8'), user('u9'), user('u10'), reply('a11', 'Hi'), user('u12', 'fresh'), user('u13')], olderItems: 8 });
    // Not lined up (the chat changed while this tab was away), out of step, or nothing held: the snapshot alone.
    expect(withSnapshot(scrolled, { transcript: [user('u12'), user('u13')], olderItems: 5 })).toEqual({ items: [user('u12'), user('u13')], olderItems: 5 });
    expect(withSnapshot({ ...scrolled, stale: true }, snapshot)).toEqual({ items: snapshot.transcript, olderItems: 12 });
    expect(withSnapshot(undefined, snapshot)).toEqual({ items: snapshot.transcript, olderItems: 12 });
  });
});
