import { describe, expect, it } from 'vitest';
import type { TranscriptItem } from '../../../../shared/transcript';
import { changeSummary, transcriptRows } from './transcript-rows';

const T = '2025-01-01T00:00:00.000Z';
const user = (id: string): TranscriptItem => ({ id, kind: 'user', text: 'hi', createdAt: T });
const change = (id: string, text = `Updated plan: ${id}`): TranscriptItem => ({ id, kind: 'plan_change', text, version: 1, createdAt: T });
const reply = (id: string, text: string, status: 'done' | 'streaming' = 'done'): TranscriptItem => ({ id, kind: 'assistant', text, status, createdAt: T });

const shape = (items: TranscriptItem[]) =>
  transcriptRows(items).map((row) => (row.kind === 'item' ? row.item.id : `[${row.items.map((i) => i.id).join(',')}]@${row.id}`));

describe('transcriptRows', () => {
  it('joins consecutive plan changes into one row keyed by the first', () => {
    expect(shape([user('u'), change('c1'), change('c2'), change('c3'), reply('a', 'Done.')])).toEqual(['u', '[c1,c2,c3]@c1', 'a']);
  });

  it('keeps a single change as a line, and runs split by visible items apart', () => {
    expect(shape([change('c1'), reply('a', 'Looking.'), change('c2'), change('c3'), user('u'), change('c4')])).toEqual([
      'c1',
      'a',
      '[c2,c3]@c2',
      'u',
      'c4',
    ]);
  });

  it('looks through text-less tool turns (they show nothing) but not through a reply being written', () => {
    expect(shape([change('c1'), reply('empty', ''), change('c2')])).toEqual(['[c1,c2]@c1']);
    expect(shape([change('c1'), reply('live', '', 'streaming'), change('c2')])).toEqual(['c1', 'live', 'c2']);
  });

  it('keeps the same key as the run grows', () => {
    const items = [change('c1'), change('c2')];
    const before = transcriptRows(items)[0];
    const after = transcriptRows([...items, change('c3')])[0];
    expect(before?.kind === 'plan_changes' && after?.kind === 'plan_changes' && before.id === after.id).toBe(true);
  });

  it('summarises a change without its "Updated plan:" prefix', () => {
    expect(changeSummary('Updated plan: step 2 “Write tests” completed')).toBe('step 2 “Write tests” completed');
    expect(changeSummary('Created plan: 5 steps')).toBe('created: 5 steps');
  });
});
