import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { TranscriptItem } from '../../../../shared/transcript';
import { rowIndexOf } from './reveal-row';
import { transcriptRows } from './transcript-rows';

const T = '2025-01-01T00:00:00.000Z';
const user = (id: string): TranscriptItem => ({ id, kind: 'user', text: `text of ${id}`, createdAt: T });
const reply = (id: string, text = `reply ${id}`): TranscriptItem => ({ id, kind: 'assistant', text, status: 'done', createdAt: T });
const change = (id: string): TranscriptItem => ({ id, kind: 'plan_change', text: `Updated plan: ${id}`, version: 1, createdAt: T });

describe('rowIndexOf', () => {
  const items = [user('u1'), change('c1'), reply('silent', ''), change('c2'), reply('a1'), user('u2'), reply('tail', '')];
  const rows = transcriptRows(items);

  it('finds an item in its own row and an item inside a plan-change group', () => {
    expect(rows.map((r) => r.kind)).toEqual(['item', 'plan_changes', 'item', 'item']);
    expect(rowIndexOf(rows, items, 'u1')).toBe(0);
    expect(rowIndexOf(rows, items, 'c2')).toBe(1);
    expect(rowIndexOf(rows, items, 'a1')).toBe(2);
  });

  it('shows an item the transcript does not draw by the next drawn row, or the last row', () => {
    expect(rowIndexOf(rows, items, 'silent')).toBe(2);
    expect(rowIndexOf(rows, items, 'tail')).toBe(3);
  });

  it('answers -1 for an item that is not in the chat', () => {
    expect(rowIndexOf(rows, items, 'elsewhere')).toBe(-1);
    expect(rowIndexOf([], [], 'elsewhere')).toBe(-1);
  });

  it('always answers a row that holds the item or comes after it (property)', () => {
    const kinds = fc.constantFrom('user', 'reply', 'silent', 'change');
    fc.assert(
      fc.property(fc.array(kinds, { minLength: 1, maxLength: 30 }), fc.nat(), (chosen, pick) => {
        const all = chosen.map((k, i): TranscriptItem => (k === 'user' ? user(`i${i}`) : k === 'reply' ? reply(`i${i}`) : k === 'silent' ? reply(`i${i}`, '') : change(`i${i}`)));
        const built = transcriptRows(all);
        const target = all[pick % all.length]!;
        const index = rowIndexOf(built, all, target.id);
        if (built.length === 0) return index === -1;
        const row = built[index]!;
        const ids = row.kind === 'item' ? [row.item.id] : row.items.map((i) => i.id);
        const at = (id: string) => all.findIndex((i) => i.id === id);
        // Holds it, or is the first drawn row after it, or the last row when nothing is drawn after it.
        if (ids.includes(target.id)) return true;
        const earlierRowsAllBefore = built.slice(0, index).every((r) => at(r.kind === 'item' ? r.item.id : r.items[0]!.id) < at(target.id));
        return earlierRowsAllBefore && (at(ids[0]!) > at(target.id) || index === built.length - 1);
      }),
    );
  });
});
