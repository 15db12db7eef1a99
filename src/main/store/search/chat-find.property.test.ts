import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { TranscriptItem } from '../../../shared/transcript';
import { foldCase } from '../../../shared/text-find';
import { FIELD_GAP, findInChat, searchableParts } from './chat-find';

// Find in chat against a naive reference: every occurrence it reports is the query at that place
// (ignoring case), none is left out, they come in order, and the cap only cuts the list.

const at = '2026-01-01T00:00:00.000Z';
// A small alphabet (with letters whose case differs, and "İ", whose lower case is longer) so queries hit often.
const char = fc.constantFrom('a', 'A', 'b', 'B', ' ', 'İ', 'i', '.', '*', 'ß', '\n');
const text = fc.array(char, { maxLength: 30 }).map((cs) => cs.join(''));
const item = fc.oneof(
  fc.record({ text }).map(({ text }) => ({ kind: 'user', text }) as const),
  fc.record({ text }).map(({ text }) => ({ kind: 'assistant', text, status: 'done' }) as const),
  fc.record({ summary: text, result: fc.option(text, { nil: undefined }) }).map(({ summary, result }) => ({
    kind: 'tool_call',
    toolUseId: 't',
    name: 'read_file',
    summary,
    input: {},
    status: 'done',
    ...(result === undefined ? {} : { result }),
  }) as const),
  fc.record({ text, discarded: fc.boolean() }).map(({ text, discarded }) => ({ kind: 'thinking', text, status: discarded ? 'discarded' : 'done' }) as const),
  fc.record({ text }).map(({ text }) => ({ kind: 'notice', level: 'info', text }) as const),
);
const chat = fc.array(item, { maxLength: 12 }).map((items) => items.map((it, i) => ({ ...it, id: `i${i}`, createdAt: at }) as TranscriptItem));
const query = fc.array(char, { minLength: 1, maxLength: 3 }).map((cs) => cs.join(''));

/** Any UTF-16 units, lone surrogates included, with the letters whose case mapping is unusual. */
const anyUnits = fc.string({ unit: fc.oneof(fc.constantFrom('İ', 'Σ', 'ß', 'ﬁ', '\u{10400}'), fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c))), maxLength: 40 });

/** Every start where the folded query occurs, overlapping or not: a superset to check against. */
function naiveStarts(haystack: string, needle: string): number[] {
  const h = foldCase(haystack);
  const n = foldCase(needle);
  const starts: number[] = [];
  for (let i = 0; i + n.length <= h.length; i++) if (h.slice(i, i + n.length) === n) starts.push(i);
  return starts;
}

/** Left-to-right, non-overlapping: the greedy pick from all starts. */
function greedy(starts: number[], length: number): number[] {
  const picked: number[] = [];
  for (const s of starts) if (picked.length === 0 || s >= picked[picked.length - 1]! + length) picked.push(s);
  return picked;
}

describe('findInChat (properties)', () => {
  it('reports exactly the non-overlapping case-insensitive occurrences, in order', () => {
    fc.assert(
      fc.property(chat, query, (items, q) => {
        const result = findInChat(items, q);
        const expected: Array<{ itemId: string; index: number; occurrence: number }> = [];
        for (const it of items) {
          let start = 0;
          let occurrence = 0;
          for (const part of searchableParts(it)) {
            for (const s of greedy(naiveStarts(part, q), q.length)) expected.push({ itemId: it.id, index: start + s, occurrence: occurrence++ });
            start += part.length + FIELD_GAP.length;
          }
        }
        expect(result.matches.map(({ itemId, index, occurrence }) => ({ itemId, index, occurrence }))).toEqual(expected);
        expect(result.total).toBe(expected.length);
        expect(result.truncated).toBe(false);
        // Each match is the query, ignoring case, at its place in the item's text.
        for (const m of result.matches) {
          const whole = searchableParts(items.find((it) => it.id === m.itemId)!).join(FIELD_GAP);
          expect(foldCase(whole.slice(m.index, m.index + q.length))).toBe(foldCase(q));
        }
      }),
      { numRuns: 300 },
    );
  });

  it('a snippet holds its match (spaces collapsed as the snippet shows them)', () => {
    const squash = (s: string) => s.replace(/\s+/g, ' ').trim();
    fc.assert(
      fc.property(chat, query, (items, q) => {
        for (const m of findInChat(items, q).matches) expect(foldCase(m.snippet)).toContain(foldCase(squash(q)));
      }),
      { numRuns: 200 },
    );
  });

  it('the cap cuts the list, never the count or the order', () => {
    fc.assert(
      fc.property(chat, query, fc.integer({ min: 0, max: 10 }), (items, q, cap) => {
        const all = findInChat(items, q);
        const capped = findInChat(items, q, cap);
        expect(capped.total).toBe(all.total);
        expect(capped.matches).toEqual(all.matches.slice(0, cap));
        expect(capped.truncated).toBe(all.total > cap);
      }),
      { numRuns: 200 },
    );
  });

  it('folding keeps every character in its place', () => {
    fc.assert(
      fc.property(anyUnits, (s) => {
        expect(foldCase(s).length).toBe(s.length);
      }),
    );
  });
});
