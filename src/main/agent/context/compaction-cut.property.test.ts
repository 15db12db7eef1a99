import type { ContentBlockParam, MessageParam } from '@anthropic-ai/sdk/resources/messages';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { historyProblems } from '../../../../test-support/main/history-check';
import { chooseCut, latestCut, pieceEnd, sizeAfterCut, turnStarts } from './compaction-cut';
import { applyCompaction, summaryPreamble } from './context-view';
import { estimateMessages } from './token-estimate';

/**
 * Histories as the loop builds them: user turns, each a user message and then rounds of tool
 * calls (an assistant message with thinking, text and tool_use blocks, and the next user message
 * with one tool_result per call, maybe a note after them), ending in a reply — or, for the last
 * turn, in the middle of its tool loop.
 */
const text = fc.string({ minLength: 1, maxLength: 400 }).map((t) => (t.trim() ? t : `x${t}`));
let ids = 0;

const toolRound = fc
  .record({ calls: fc.integer({ min: 1, max: 3 }), thinking: fc.boolean(), preface: fc.option(text, { nil: undefined }), note: fc.option(text, { nil: undefined }), results: fc.array(text, { minLength: 3, maxLength: 3 }) })
  .map(({ calls, thinking, preface, note, results }): MessageParam[] => {
    const uses = Array.from({ length: calls }, () => `toolu_${++ids}`);
    const assistant: ContentBlockParam[] = [
      ...(thinking ? [{ type: 'thinking', thinking: 'considering', signature: 'sig' } as unknown as ContentBlockParam] : []),
      ...(preface ? [{ type: 'text' as const, text: preface }] : []),
      ...uses.map((id) => ({ type: 'tool_use' as const, id, name: 'read_file', input: { path: id } })),
    ];
    const user: ContentBlockParam[] = [
      ...uses.map((id, i) => ({ type: 'tool_result' as const, tool_use_id: id, content: results[i % results.length]! })),
      ...(note ? [{ type: 'text' as const, text: note }] : []),
    ];
    return [{ role: 'assistant', content: assistant }, { role: 'user', content: user }];
  });

const turn = fc
  .record({ ask: text, rounds: fc.array(toolRound, { maxLength: 4 }), reply: fc.option(text, { nil: undefined }) })
  .map(({ ask, rounds, reply }): MessageParam[] => [
    { role: 'user', content: [{ type: 'text', text: ask }] },
    ...rounds.flat(),
    ...(reply ? [{ role: 'assistant' as const, content: [{ type: 'text' as const, text: reply }] }] : []),
  ]);

/** Turns joined into one valid history: a turn that ended without a reply gets one before the next. */
const history = fc.array(turn, { minLength: 1, maxLength: 8 }).map((turns) =>
  turns.flatMap((t, i) => (i < turns.length - 1 && t.at(-1)!.role === 'user' ? [...t, { role: 'assistant' as const, content: [{ type: 'text' as const, text: 'done' }] }] : t)),
);

const latestUserText = (messages: readonly MessageParam[]) =>
  messages.findLast((m) => m.role === 'user' && typeof m.content !== 'string' && m.content.some((b) => b.type === 'text'));

describe('where compaction cuts the history', () => {
  it('generated histories are valid Messages API histories', () => {
    fc.assert(
      fc.property(history, (h) => {
        expect(historyProblems(h)).toEqual([]);
      }),
    );
  });

  it('a cut never splits a tool_use from its tool_result, and the compacted request stays valid', () => {
    fc.assert(
      fc.property(history, fc.nat(), (h, pick) => {
        const starts = turnStarts(h);
        for (const start of starts) {
          const message = h[start]!;
          expect(message.role).toBe('user');
          expect(typeof message.content === 'string' || message.content.every((b) => b.type !== 'tool_result')).toBe(true);
          const before = h[start - 1];
          if (before && typeof before.content !== 'string') expect(before.content.some((b) => b.type === 'tool_use')).toBe(false);
        }
        const cut = starts[pick % starts.length]!;
        const sent = applyCompaction(h, { upTo: cut, summary: 'what happened before' });
        expect(historyProblems(sent)).toEqual([]);
      }),
    );
  });

  it('always keeps the latest user message and the current tool loop verbatim (thinking blocks included)', () => {
    fc.assert(
      fc.property(history, fc.nat(), fc.integer({ min: -1, max: 5_000 }), (h, fromPick, target) => {
        const starts = turnStarts(h);
        const from = [0, ...starts][fromPick % (starts.length + 1)]!;
        const sizes = estimateMessages(h);
        const cut = chooseCut({ sizes, starts, from, fixed: 300, target });
        if (cut === null) {
          expect(starts.every((s) => s <= from)).toBe(true);
          return;
        }
        expect(starts).toContain(cut);
        expect(cut).toBeGreaterThan(from);
        const latestStart = starts.at(-1)!;
        expect(cut).toBeLessThanOrEqual(latestStart);
        const sent = applyCompaction(h, { upTo: cut, summary: 'summary' });
        // Everything from the latest user turn on goes as it is (the first kept message only gains the summary in front).
        const kept = h.length - cut;
        expect(sent).toHaveLength(kept);
        expect(sent.slice(1)).toEqual(h.slice(cut + 1));
        expect(JSON.stringify(sent)).toContain(JSON.stringify(latestUserText(h)!.content).slice(1, -1));
        const first = sent[0]!.content as ContentBlockParam[];
        expect(first[0]).toEqual({ type: 'text', text: summaryPreamble({ upTo: cut, summary: 'summary' }) });
        expect(first.slice(1)).toEqual(h[cut]!.content);
      }),
    );
  });

  it('keeps as many recent turns as fit the target, and never more than the window after compacting when anything fits it', () => {
    fc.assert(
      fc.property(history, fc.integer({ min: 50, max: 6_000 }), fc.integer({ min: 0, max: 3_000 }), (h, budget, fixed) => {
        const starts = turnStarts(h);
        const sizes = estimateMessages(h);
        const target = Math.floor(budget / 2);
        const cut = chooseCut({ sizes, starts, from: 0, fixed, target });
        if (cut === null) return;
        const candidates = starts.filter((s) => s > 0);
        const fitsTarget = candidates.filter((s) => sizeAfterCut({ sizes, fixed }, s) <= target);
        if (fitsTarget.length) {
          // The earliest cut that fits: the most turns kept verbatim.
          expect(cut).toBe(fitsTarget[0]);
        } else {
          expect(cut).toBe(candidates.at(-1));
        }
        // If any cut makes the request fit the budget, the chosen one does.
        if (candidates.some((s) => sizeAfterCut({ sizes, fixed }, s) <= budget)) {
          expect(sizeAfterCut({ sizes, fixed }, cut)).toBeLessThanOrEqual(budget);
        }
      }),
    );
  });

  it('"Compact now" cuts at the latest user turn, and has nothing to do before a second turn', () => {
    fc.assert(
      fc.property(history, (h) => {
        const starts = turnStarts(h);
        expect(latestCut(starts, 0)).toBe(starts.length > 1 ? starts.at(-1) : null);
        expect(latestCut(starts, starts.at(-1)!)).toBeNull();
      }),
    );
  });

  it('summarises a stretch too long for one request in pieces of whole turns, each as long as fits', () => {
    fc.assert(
      fc.property(history, fc.integer({ min: 0, max: 4_000 }), (h, room) => {
        const starts = turnStarts(h);
        const limit = starts.at(-1)!;
        if (limit === 0) return;
        const sizes = estimateMessages(h);
        const end = pieceEnd(sizes, starts, 0, limit, room);
        const sum = (to: number) => sizes.slice(0, to).reduce((a, b) => a + b, 0);
        expect(starts).toContain(end);
        expect(end).toBeGreaterThan(0);
        expect(end).toBeLessThanOrEqual(limit);
        const later = starts.filter((s) => s > end && s <= limit);
        // It fits (unless even the first turn alone does not), and the next whole turn would not.
        if (end !== starts.find((s) => s > 0)) expect(sum(end)).toBeLessThanOrEqual(room);
        if (later.length && sum(end) <= room) expect(sum(later[0]!)).toBeGreaterThan(room);
      }),
    );
  });
});
