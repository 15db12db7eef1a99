import type { MessageCreateParamsBase, MessageParam } from '@anthropic-ai/sdk/resources/messages';
import type { WaypointEvent } from '../../../shared/contract';
import type { Plan } from '../../../shared/plan';
import type { CompactionItem } from '../../../shared/transcript';
import { newItemId, noticeItem, nowIso } from '../../common/transcript-items';
import { addCacheBreakpoints } from '../model/cache-control';
import { chooseCut, latestCut, turnStarts } from './compaction-cut';
import { summariseUpTo, summaryMaxTokens, type SummaryDeps } from './compaction-summary';
import { inputBudget, TARGET_SHARE } from './context-budget';
import { calibrationOf, measureForCompaction, measureRequest, measureWith, type Measured } from './context-measure';
import { applyCompaction, appliesTo, planStateNote, shortenToolResults, withTailText, type Compaction } from './context-view';
import { estimateFixed, estimateMessages, estimateText } from './token-estimate';
import { usageOf } from '../model/usage-meter';
import type { Pause } from '../pauses/pause-kind';

/**
 * Every request fits the chosen model's window (docs/contract.md §5, "Model and its window"): measured
 * before it is sent, and when it would not fit, the older turns are compacted first — Claude
 * summarises them in a separate request, and from then on requests carry that summary, the
 * plan's current state and the recent turns verbatim. Only when the current turn alone is too
 * big are its older tool results shortened; a request that still would not fit is not sent.
 */

export interface FitDeps extends Omit<SummaryDeps, 'base' | 'ratio'> {
  plan: Plan | null;
  publish(event: WaypointEvent): void;
}

export type FitOutcome =
  | { kind: 'ready'; request: MessageCreateParamsBase; measured: Measured }
  | { kind: 'stopped' }
  /** A summary request failed after the loop's retries. */
  | { kind: 'failed'; error: unknown; retries: number }
  /** Even the current turn alone, shortened, does not fit. */
  | { kind: 'too_long'; tokens: number; budget: number }
  /** A summary request would pass the plan's budget: nothing was sent, the run pauses. */
  | { kind: 'budget'; pause: Pause };

/** The request as sent: the compaction applied, cache breakpoints set, the plan's state at the end once anything was left out. */
export function composeRequest(base: MessageCreateParamsBase, compaction: Compaction | null, plan: Plan | null, shortenFrom?: { from: number; includeNewest: boolean }): MessageCreateParamsBase {
  const applied = appliesTo(base.messages, compaction) ? compaction : null;
  let messages = applyCompaction(base.messages, applied);
  if (shortenFrom) messages = shortenToolResults(messages, shortenFrom.from, shortenFrom.includeNewest).messages;
  const request = addCacheBreakpoints({ ...base, messages });
  const note = applied || shortenFrom ? planStateNote(plan) : null;
  return note ? { ...request, messages: withTailText(request.messages, note) } : request;
}

export async function fitRequest(base: MessageCreateParamsBase, deps: FitDeps): Promise<FitOutcome> {
  const budget = inputBudget(deps.limits.contextWindow, base.max_tokens);
  const measure = (request: MessageCreateParamsBase) => measureRequest(request, { session: deps.session, client: deps.client, signal: deps.signal, budget, ...(deps.resolve ? { resolve: deps.resolve } : {}) });
  try {
    let request = composeRequest(base, deps.session.compaction, deps.plan);
    let measured = await measure(request);
    if (measured.tokens <= budget) return { kind: 'ready', request, measured };
    // Where to cut and how big a summary request may be rest on a calibrated measure.
    measured = await measureForCompaction(request, measured, deps);
    if (measured.tokens <= budget) return { kind: 'ready', request, measured };

    const cut = chooseCut({ ...cutSizes(base, deps.limits, deps.plan, measured.ratio), starts: turnStarts(base.messages), from: currentCut(base, deps), target: budget * TARGET_SHARE });
    if (cut !== null) {
      const compacted = await compact(cut, measured.tokens, 'auto', base, { ...deps, ratio: measured.ratio });
      if (compacted.kind !== 'done') return compacted;
      request = composeRequest(base, compacted.item, deps.plan);
      measured = await measure(request);
      if (measured.tokens <= budget) return { kind: 'ready', request, measured };
    }
    // The current turn alone is too big: its older tool results, then its newest too, are shortened.
    for (const includeNewest of [false, true]) {
      request = composeRequest(base, deps.session.compaction, deps.plan, { from: 0, includeNewest });
      measured = await measure(request);
      if (measured.tokens <= budget) {
        noteTrimmedOnce(base, deps);
        return { kind: 'ready', request, measured };
      }
    }
    return { kind: 'too_long', tokens: measured.tokens, budget };
  } catch (error) {
    if (deps.signal.aborted) return { kind: 'stopped' };
    throw error;
  }
}

/** "Compact now": everything before the latest user turn is summarised. */
export async function compactNow(base: MessageCreateParamsBase, deps: FitDeps): Promise<Exclude<FitOutcome, { kind: 'ready' | 'too_long' }> | { kind: 'done' } | { kind: 'nothing' }> {
  const cut = latestCut(turnStarts(base.messages), currentCut(base, deps));
  if (cut === null) return { kind: 'nothing' };
  try {
    const request = composeRequest(base, deps.session.compaction, deps.plan);
    const before = await measureForCompaction(request, measureWith(request, calibrationOf(deps.session, base.model) ?? 1), deps);
    const compacted = await compact(cut, before.tokens, 'manual', base, { ...deps, ratio: before.ratio });
    return compacted.kind === 'done' ? { kind: 'done' } : compacted;
  } catch (error) {
    if (deps.signal.aborted) return { kind: 'stopped' };
    throw error;
  }
}

/** Whether "Compact now" has anything to summarise: a user turn after the current cut, before the latest. */
export function canCompact(history: readonly MessageParam[], compaction: Compaction | null): boolean {
  const from = appliesTo(history, compaction) ? compaction.upTo : 0;
  return turnStarts(history).some((start) => start > from);
}

/** The turns whose tool results were shortened, so the user is told once per turn. */
const trimmedTurns = new WeakMap<FitDeps['session'], number>();

function noteTrimmedOnce(base: MessageCreateParamsBase, deps: FitDeps): void {
  const turn = turnStarts(base.messages).at(-1) ?? 0;
  if (trimmedTurns.get(deps.session) === turn) return;
  trimmedTurns.set(deps.session, turn);
  const text = `This turn's tool results are too long for ${base.model}'s context window, so Waypoint sends Claude shortened versions of them. The full results stay in this chat.`;
  deps.publish({ type: 'transcript_item', sessionId: deps.session.summary.id, item: noticeItem('info', text, 'context_trimmed') });
}

function currentCut(base: MessageCreateParamsBase, deps: FitDeps): number {
  return appliesTo(base.messages, deps.session.compaction) ? deps.session.compaction.upTo : 0;
}

/** Sizes for the cut: each message, and what else a compacted request holds (the summary at its longest, the plan). */
function cutSizes(base: MessageCreateParamsBase, limits: FitDeps['limits'], plan: Plan | null, ratio: number) {
  const note = planStateNote(plan);
  const fixed = estimateFixed(base) + summaryMaxTokens(limits) + 100 + (note ? estimateText(note) : 0);
  return { sizes: estimateMessages(base.messages).map((n) => n * ratio), fixed: fixed * ratio };
}

type CompactResult = { kind: 'done'; item: CompactionItem } | Exclude<FitOutcome, { kind: 'ready' | 'too_long' }>;

/** Summarises up to `cut`, then puts the marker in the transcript (and so in the log and the chat's state). */
async function compact(cut: number, tokensBefore: number, trigger: CompactionItem['trigger'], base: MessageCreateParamsBase, deps: FitDeps & { ratio: number }): Promise<CompactResult> {
  let costUsd = 0;
  deps.setState({ status: 'running', phase: 'compacting' });
  const outcome = await summariseUpTo(cut, {
    ...deps,
    base,
    onUsage: (usage, model) => {
      costUsd += usageOf(model, usage).costUsd;
      deps.onUsage(usage, model);
    },
  });
  if (outcome.kind !== 'done') return outcome;
  const after = measureWith(composeRequest(base, outcome.compaction, deps.plan), deps.ratio);
  const item: CompactionItem = {
    id: newItemId(),
    createdAt: nowIso(),
    kind: 'compaction',
    summary: outcome.compaction.summary,
    trigger,
    upTo: outcome.compaction.upTo,
    tokensBefore: Math.round(tokensBefore),
    tokensAfter: after.tokens,
    costUsd,
  };
  const sessionId = deps.session.summary.id;
  deps.publish({ type: 'transcript_item', sessionId, item });
  deps.publish({ type: 'session_updated', session: { ...deps.session.summary, context: { tokens: after.tokens, window: deps.limits.contextWindow } } });
  return { kind: 'done', item };
}
