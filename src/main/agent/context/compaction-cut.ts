import type { MessageParam } from '@anthropic-ai/sdk/resources/messages';

/**
 * Where compaction may cut the API history, and where it does. Pure: sizes in, index out.
 *
 * A cut is only ever at the start of a user turn — a user message that answers no tool call — so
 * the part summarised and the part sent verbatim never split a tool_use from its tool_result, and
 * the current tool loop (everything from the latest user turn on, thinking blocks included) is
 * never touched. The latest user turn always stays: no cut lies after its start.
 */

const hasToolResult = (message: MessageParam): boolean =>
  typeof message.content !== 'string' && message.content.some((block) => block.type === 'tool_result');

/** Indices of the messages that start a user turn, ascending. */
export function turnStarts(history: readonly MessageParam[]): number[] {
  const starts: number[] = [];
  history.forEach((message, i) => {
    if (message.role === 'user' && !hasToolResult(message) && (i === 0 || history[i - 1]!.role === 'assistant')) starts.push(i);
  });
  return starts;
}

export interface CutInput {
  /** Tokens of each history message as it would be sent. */
  sizes: readonly number[];
  /** turnStarts() of the same history. */
  starts: readonly number[];
  /** The current cut (0 without an earlier compaction): the new one lies after it. */
  from: number;
  /** Tokens of the rest of the compacted request: system, tools, the summary (at its longest), the plan. */
  fixed: number;
  /** The size to get under; the cut keeps as many recent turns as fit in it. */
  target: number;
}

/** Tokens of the request when the history is cut at `cut`. */
export function sizeAfterCut(input: Pick<CutInput, 'sizes' | 'fixed'>, cut: number): number {
  let total = input.fixed;
  for (let i = cut; i < input.sizes.length; i++) total += input.sizes[i]!;
  return total;
}

/**
 * The new cut: the earliest turn start after `from` that brings the request under `target`
 * (the most recent turns kept verbatim), else the latest turn start (the least kept: the
 * current turn alone); null when no turn start lies after `from` — nothing left to compact.
 */
export function chooseCut(input: CutInput): number | null {
  const candidates = input.starts.filter((start) => start > input.from);
  if (candidates.length === 0) return null;
  return candidates.find((start) => sizeAfterCut(input, start) <= input.target) ?? candidates[candidates.length - 1]!;
}

/** The latest turn start after `from` ("Compact now" keeps only the current turn), or null. */
export function latestCut(starts: readonly number[], from: number): number | null {
  const last = starts.at(-1);
  return last !== undefined && last > from ? last : null;
}

/** The latest turn start after `after` and before `limit` (for summarising in pieces), or null. */
export function lastStartBefore(starts: readonly number[], after: number, limit: number): number | null {
  const found = starts.filter((start) => start > after && start < limit);
  return found.length ? found[found.length - 1]! : null;
}

/**
 * Where a piece of the summarised stretch [from, limit) ends when it must fit `room` tokens: the
 * latest turn start up to `limit` whose messages from `from` on fit, else the first turn start
 * after `from` (a single turn, to be squeezed). Computed from the sizes once, so a long stretch
 * costs no request rebuilt per turn.
 */
export function pieceEnd(sizes: readonly number[], starts: readonly number[], from: number, limit: number, room: number): number {
  const candidates = starts.filter((start) => start > from && start <= limit);
  let total = 0;
  let end = candidates[0] ?? limit;
  let at = from;
  for (const start of candidates) {
    for (; at < start; at++) total += sizes[at]!;
    if (total > room) break;
    end = start;
  }
  return end;
}
