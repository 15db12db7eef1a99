import { describe, expect, it } from 'vitest';
import type { TranscriptItem } from '../../../shared/transcript';
import { FIELD_GAP, findInChat } from './chat-find';

const at = '2026-01-01T00:00:00.000Z';
const user = (id: string, text: string): TranscriptItem => ({ id, createdAt: at, kind: 'user', text });
const reply = (id: string, text: string): TranscriptItem => ({ id, createdAt: at, kind: 'assistant', text, status: 'done' });

describe('findInChat', () => {
  it('finds every occurrence, case-insensitively, in transcript order', () => {
    const items = [user('u1', 'The Lighthouse keeper'), reply('a1', 'A lighthouse, then another LIGHTHOUSE.'), user('u2', 'no match here')];
    const result = findInChat(items, 'lighthouse');
    expect(result.total).toBe(3);
    expect(result.truncated).toBe(false);
    expect(result.matches.map((m) => [m.itemId, m.index, m.occurrence])).toEqual([
      ['u1', 4, 0],
      ['a1', 2, 0],
      ['a1', 27, 1],
    ]);
    expect(result.matches[2]!.snippet).toBe('A lighthouse, then another LIGHTHOUSE.');
  });

  it('is plain text, not a pattern', () => {
    const items = [reply('a1', 'costs $5 (or more) per a.b'), reply('a2', 'axb')];
    expect(findInChat(items, '(or more)').total).toBe(1);
    expect(findInChat(items, 'a.b').matches.map((m) => m.itemId)).toEqual(['a1']);
    expect(findInChat(items, '.*').total).toBe(0);
  });

  it('counts non-overlapping matches, as find-in-page does', () => {
    expect(findInChat([reply('a1', 'aaaa')], 'aa').total).toBe(2);
  });

  it('searches what each kind of item shows: tool summaries and results, shown thinking, notices', () => {
    const items: TranscriptItem[] = [
      { id: 't1', createdAt: at, kind: 'tool_call', toolUseId: 'x', name: 'read_file', summary: 'Read notes.txt', input: { path: 'secret-input' }, status: 'done', result: 'the notes say hello' },
      { id: 'th1', createdAt: at, kind: 'thinking', text: 'hello from thinking', status: 'done' },
      { id: 'th2', createdAt: at, kind: 'thinking', text: 'hello, discarded', status: 'discarded' },
      { id: 'n1', createdAt: at, kind: 'notice', level: 'warning', text: 'Rate limited; hello again soon' },
    ];
    expect(findInChat(items, 'hello').matches.map((m) => m.itemId)).toEqual(['t1', 'th1', 'n1']);
    // The result comes after the summary, past the gap between the two parts.
    expect(findInChat(items, 'hello').matches[0]!.index).toBe('Read notes.txt'.length + FIELD_GAP.length + 'the notes say '.length);
    expect(findInChat(items, 'notes').matches.map((m) => m.occurrence)).toEqual([0, 1]);
    // A tool's raw input is not what the card shows.
    expect(findInChat(items, 'secret-input').total).toBe(0);
  });

  it('caps the matches it returns but counts them all', () => {
    const items = Array.from({ length: 30 }, (_, i) => reply(`a${i}`, 'word word'));
    const result = findInChat(items, 'WORD', 25);
    expect(result.matches).toHaveLength(25);
    expect(result.total).toBe(60);
    expect(result.truncated).toBe(true);
  });

  it('cuts a long snippet around the match', () => {
    const text = `${'before '.repeat(40)}needle${' after'.repeat(40)}`;
    const [match] = findInChat([reply('a1', text)], 'needle').matches;
    expect(match!.snippet).toMatch(/^….*needle.*…$/);
    expect(match!.snippet.length).toBeLessThan(100);
  });

  it('finds nothing for an empty query', () => {
    expect(findInChat([reply('a1', 'text')], '')).toEqual({ matches: [], total: 0, truncated: false });
  });
});
