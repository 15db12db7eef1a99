import { appendFileSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AssistantItem } from '../../../shared/transcript';
import type { LineSpan } from '../log-reader';
import { PagedItems } from './paged-items';

/**
 * When an item may leave memory: only once the lines that reproduce it are in the file. Lines are
 * appended here by hand, so each case decides which record lands when (as a failing disk would).
 */

let dir: string;
let path: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'waypoint-paged-items-'));
  path = join(dir, 'events.jsonl');
  appendFileSync(path, '');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

let seq = 0;
/** Appends a record's line; returns where it lies. */
function line(record: object): LineSpan {
  const start = statSync(path).size;
  const text = JSON.stringify({ seq: seq++, t: 'x', ...record });
  appendFileSync(path, `${text}\n`);
  return { start, end: start + Buffer.byteLength(text) };
}

const reply = (id: string, text: string): AssistantItem => ({ id, createdAt: 'x', kind: 'assistant', text, status: 'streaming' });
const land = (ticket: ((start: number, end: number) => void) | undefined, span: LineSpan) => ticket!(span.start, span.end);

function itemsWithOld(keep = 0): PagedItems {
  const items = new PagedItems(keep);
  items.attach(path);
  // An old item the window has left, and a newer one to push it out.
  items.set(reply('old', 'old reply'));
  land(items.recording('old', 'item'), line({ type: 'item', item: reply('old', 'old reply') }));
  return items;
}

describe('PagedItems', () => {
  it('lets an item go once its record is in the file, and reads it back from there', () => {
    const items = itemsWithOld();
    expect(items.resident).toBe(0);
    expect(items.get('old')).toEqual(reply('old', 'old reply'));
    expect(items.resident).toBe(0);
  });

  it('keeps an upsert whose own record has not landed, even when the text flushed before it has', () => {
    const items = itemsWithOld();
    items.appendText('old', ' and more');
    // The upsert is applied before persistence flushes the text streamed before it, then logs it.
    items.set(reply('old', 'replaced'));
    const text = items.recording('old', 'text');
    const record = items.recording('old', 'item');
    land(text, line({ type: 'text', itemId: 'old', text: ' and more' }));
    expect(items.get('old')).toEqual(reply('old', 'replaced'));
    expect(items.resident).toBe(1);
    land(record, line({ type: 'item', item: reply('old', 'replaced') }));
    expect(items.resident).toBe(0);
    expect(items.get('old')).toEqual(reply('old', 'replaced'));
  });

  it('joins streamed text to the item record it follows; a text record after one that never landed keeps the item', () => {
    const items = itemsWithOld();
    items.appendText('old', ' one');
    land(items.recording('old', 'text'), line({ type: 'text', itemId: 'old', text: ' one' }));
    expect(items.resident).toBe(0);
    expect(items.get('old')).toEqual(reply('old', 'old reply one'));

    items.appendText('old', ' two');
    items.recording('old', 'text'); // lost: its writer closed before it was written
    items.appendText('old', ' three');
    land(items.recording('old', 'text'), line({ type: 'text', itemId: 'old', text: ' three' }));
    expect(items.resident).toBe(1);
    expect(items.get('old')).toEqual(reply('old', 'old reply one two three'));
  });

  it('keeps a run`s items until it ends, and the newest items always', () => {
    const items = new PagedItems(1);
    items.attach(path);
    items.pin(0);
    for (const id of ['a', 'b', 'c']) {
      items.set(reply(id, id));
      land(items.recording(id, 'item'), line({ type: 'item', item: reply(id, id) }));
    }
    expect(items.resident).toBe(3);
    items.unpin();
    expect(items.resident).toBe(1);
    expect(items.slice(0)).toEqual(['a', 'b', 'c'].map((id) => reply(id, id)));
  });

  it('ignores a record that lands for an item cut meanwhile, and reads back into the window after a cut', () => {
    const items = new PagedItems(1);
    items.attach(path);
    for (const id of ['a', 'b', 'c']) {
      items.set(reply(id, id));
      land(items.recording(id, 'item'), line({ type: 'item', item: reply(id, id) }));
    }
    items.set(reply('d', 'd'));
    const late = items.recording('d', 'item');
    items.cutFrom('c');
    land(late, line({ type: 'item', item: reply('d', 'd') }));
    expect(items.size).toBe(2);
    expect(items.get('d')).toBeUndefined();
    // 'b' is the newest again: read once, then kept.
    expect(items.get('b')).toEqual(reply('b', 'b'));
    expect(items.resident).toBe(1);
  });

  it('text joins assistant and thinking items only, as replay folds it', () => {
    const items = new PagedItems();
    items.set({ id: 'n', createdAt: 'x', kind: 'notice', level: 'info', text: 'note' });
    items.appendText('n', ' more');
    items.appendText('missing', 'x');
    expect(items.recording('n', 'text')).toBeUndefined();
    expect(items.values()).toEqual([{ id: 'n', createdAt: 'x', kind: 'notice', level: 'info', text: 'note' }]);
  });
});
