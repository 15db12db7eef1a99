import type { MessageParam } from '@anthropic-ai/sdk/resources/messages';
import { describe, expect, it } from 'vitest';
import type { Plan } from '../../../shared/plan';
import { composeRequest } from './context-fit';
import { appliesTo, planStateNote, shortenToolResults } from './context-view';

const long = 'r'.repeat(2_000);
const history: MessageParam[] = [
  { role: 'user', content: 'first question' },
  { role: 'assistant', content: [{ type: 'text', text: 'first answer' }] },
  { role: 'user', content: [{ type: 'text', text: 'second question' }] },
  { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'read_file', input: { path: 'a' } }] },
  { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: long }] },
  { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_2', name: 'read_file', input: { path: 'b' } }] },
  { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_2', content: long }] },
];
const plan = {
  id: 'p',
  goal: 'Read both files',
  status: 'active',
  version: 7,
  steps: [
    { id: 1, title: 'Read a', status: 'completed' },
    { id: 2, title: 'Read b', status: 'in_progress' },
    { id: 3, title: 'Compare', status: 'pending' },
  ],
} as unknown as Plan;
const base = { model: 'm', max_tokens: 100, system: 'sys', messages: structuredClone(history) };

describe('the request as sent', () => {
  it('without a compaction: the history as it is, with the cache breakpoint on its last block and no plan note', () => {
    const sent = composeRequest(base, null, plan);
    expect(sent.messages).toHaveLength(history.length);
    expect(JSON.stringify(sent.messages)).not.toContain('Waypoint note');
    expect(JSON.stringify(sent.messages.at(-1))).toContain('"cache_control":{"type":"ephemeral"}');
  });

  it('after a compaction: the summary opens the first kept turn, the plan (every step and status) rides at the end after the breakpoint', () => {
    const sent = composeRequest(base, { upTo: 2, summary: 'They asked a first question.' }, plan);
    expect(sent.messages).toHaveLength(5);
    const first = sent.messages[0]!.content as { type: string; text?: string }[];
    expect(first[0]!.text).toContain('<summary>\nThey asked a first question.\n</summary>');
    expect(first[0]!.text).toContain('The 2 earlier messages are replaced by this summary');
    expect(first[1]).toEqual({ type: 'text', text: 'second question' });
    const last = sent.messages.at(-1)!.content as { type: string; text?: string; cache_control?: unknown }[];
    // The breakpoint stays on the last block of the history; the note comes after it, so the
    // next request's prefix (which has no note here) still matches the cached one.
    expect(last.at(-2)).toMatchObject({ type: 'tool_result', cache_control: { type: 'ephemeral' } });
    expect(last.at(-1)).toEqual({ type: 'text', text: planStateNote(plan) });
    expect(planStateNote(plan)).toBe('(Waypoint note: the plan as it stands now — "Read both files", active, version 7:\n- [completed] 1. Read a\n- [in_progress] 2. Read b\n- [pending] 3. Compare)');
  });

  it('the summarised prefix is byte-identical from one request to the next (the cache keeps it)', () => {
    const compaction = { upTo: 2, summary: 'S' };
    const one = composeRequest(base, compaction, plan);
    const more = [...structuredClone(history), { role: 'assistant', content: [{ type: 'text', text: 'done' }] }, { role: 'user', content: [{ type: 'text', text: 'next' }] }] as MessageParam[];
    const two = composeRequest({ ...base, messages: more }, compaction, plan);
    const strip = (m: unknown) => JSON.stringify(m).replace(/,"cache_control":\{"type":"ephemeral"\}/g, '');
    // Up to the last block of request one (its breakpoint), request two says the same.
    const oneUpToBreakpoint = strip({ ...one.messages.at(-1)!, content: (one.messages.at(-1)!.content as unknown[]).slice(0, -1) });
    expect(strip(two.messages.slice(0, one.messages.length - 1))).toBe(strip(one.messages.slice(0, -1)));
    expect(strip(two.messages[one.messages.length - 1])).toBe(oneUpToBreakpoint);
  });

  it('a compaction no longer applies when the history was cut short before its cut (an edit)', () => {
    expect(appliesTo(history, { upTo: 2, summary: 'S' })).toBe(true);
    expect(appliesTo(history.slice(0, 2), { upTo: 2, summary: 'S' })).toBe(false);
    expect(appliesTo(history, { upTo: 4, summary: 'S' })).toBe(false); // not a user turn's start
    expect(composeRequest({ ...base, messages: history.slice(0, 2) }, { upTo: 2, summary: 'S' }, plan).messages).toHaveLength(2);
  });

  it('shortening as a last resort changes only tool_result content, and the newest only when asked', () => {
    const { messages, count } = shortenToolResults(history, 0);
    expect(count).toBe(1);
    expect(JSON.stringify(messages[4])).toContain('Waypoint shortened this tool result from 2000 characters');
    expect(messages[6]).toEqual(history[6]);
    expect(messages.map((m) => m.role)).toEqual(history.map((m) => m.role));
    expect(messages[3]).toEqual(history[3]);
    const all = shortenToolResults(history, 0, true);
    expect(all.count).toBe(2);
    expect(JSON.stringify(all.messages[6])).toContain('shortened');
  });
});
