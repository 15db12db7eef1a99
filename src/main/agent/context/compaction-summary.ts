import type Anthropic from '@anthropic-ai/sdk';
import type { ContentBlockParam, MessageCreateParamsBase, MessageParam, Usage } from '@anthropic-ai/sdk/resources/messages';
import type { RunState } from '../../../shared/transcript';
import type { ChatSession } from '../../chats/chat-session';
import type { ApiRetryPolicy } from '../model/api-retry-policy';
import { addCacheBreakpoints } from '../model/cache-control';
import { lastStartBefore, pieceEnd, turnStarts } from './compaction-cut';
import { inputBudget } from './context-budget';
import { measureWith } from './context-measure';
import { applyCompaction, appliesTo, shortenToolResults, type Compaction } from './context-view';
import type { ModelLimits } from '../model/model-catalog';
import { requestModelTurn } from '../model/model-turn';
import { estimateMessages } from './token-estimate';
import type { Pause } from '../pauses/pause-kind';

/**
 * The summary requests of a compaction. Each one is the chat's own request up to the cut —
 * the same system prompt, tools and messages, so the API reads that prefix from its prompt cache —
 * plus one user message asking for the summary. A stretch too long for one request is summarised
 * in pieces, each piece's summary carried into the next.
 */

/** The first words of the summary request's instruction (tests and the scripted server look for them). */
export const SUMMARY_REQUEST_MARK = 'Waypoint needs room in the context window';

/** The longest summary asked for: a tenth of the window, at most 4,096 tokens, within the model's cap. */
export function summaryMaxTokens(limits: ModelLimits): number {
  return Math.min(limits.maxOutputTokens, 4_096, Math.max(256, Math.floor(limits.contextWindow / 10)));
}

export function summaryInstruction(maxTokens: number): string {
  const words = Math.max(100, Math.floor(maxTokens * 0.6));
  return [
    `${SUMMARY_REQUEST_MARK}: the conversation above (including any earlier summary) will be replaced by the summary you write now. Reply with the summary only, as plain text; do not call tools.`,
    'Keep everything needed to carry on the work without the original turns: what the user asked for and prefers (their exact words where they matter); decisions and why; files, paths, commands, names and values involved; what was done and what it produced; errors met and how they were solved; open questions and what was about to happen next.',
    "Leave out the plan's steps: Waypoint sends the plan's current state with every request.",
    `At most about ${words} words.`,
  ].join('\n\n');
}

export interface SummaryDeps {
  session: ChatSession;
  client: Anthropic;
  signal: AbortSignal;
  limits: ModelLimits;
  /** The chat's request as built: its model, system prompt and tools make the shared prefix. */
  base: MessageCreateParamsBase;
  /** Reported input tokens per estimated token (context-measure.ts), to size the pieces. */
  ratio: number;
  retryPolicy: ApiRetryPolicy;
  stallTimeoutMs: number;
  setState(state: RunState): void;
  /** Each summary request's usage: the chat's cost counts it. */
  onUsage(usage: Usage, model: string): void;
  /** The request as it can be sent: attachment references filled in (absent: sent as built). */
  resolve?(request: MessageCreateParamsBase): Promise<MessageCreateParamsBase>;
  /** The plan's budget, asked before each summary request (agent/plan-hooks/budget-gate.ts): a Pause stops it unsent. */
  admit?(model: string, inputTokens: number): Pause | null;
}

export type SummaryOutcome =
  | { kind: 'done'; compaction: Compaction }
  | { kind: 'stopped' }
  | { kind: 'failed'; error: unknown; retries: number }
  | { kind: 'budget'; pause: Pause };

/** Summarises the history before `cut` (a user turn's start), on top of the chat's current compaction. */
export async function summariseUpTo(cut: number, deps: SummaryDeps): Promise<SummaryOutcome> {
  const history = deps.session.history;
  const starts = turnStarts(history);
  const maxTokens = summaryMaxTokens(deps.limits);
  const budget = inputBudget(deps.limits.contextWindow, maxTokens);
  const sizes = estimateMessages(history);
  let current: Compaction | null = appliesTo(history, deps.session.compaction) ? deps.session.compaction : null;
  while ((current?.upTo ?? 0) < cut) {
    const from = current?.upTo ?? 0;
    // Too long for one request: the longest run of whole turns that fits goes first.
    const fixed = measureWith(summaryRequest(deps.base, history, current, from + 1, maxTokens), 1).estimate - sizes[from]!;
    let end = pieceEnd(sizes, starts, from, cut, budget / deps.ratio - fixed);
    let request = summaryRequest(deps.base, history, current, end, maxTokens);
    for (let smaller = lastStartBefore(starts, from, end); !fits(request, deps.ratio, budget) && smaller !== null; smaller = lastStartBefore(starts, from, end)) {
      end = smaller;
      request = summaryRequest(deps.base, history, current, end, maxTokens);
    }
    if (!fits(request, deps.ratio, budget)) request = squeezed(request, deps.ratio, budget);
    const stop = deps.admit?.(request.model, measureWith(request, deps.ratio).tokens);
    if (stop) return { kind: 'budget', pause: stop };
    const asked = await ask(request, deps);
    if (asked.kind !== 'done') return asked;
    current = { upTo: end, summary: asked.text };
  }
  return current ? { kind: 'done', compaction: current } : { kind: 'failed', error: new Error('There was nothing to summarise.'), retries: 0 };
}

/** The chat's messages before `end` (with the current summary in front) and the instruction. */
function summaryRequest(base: MessageCreateParamsBase, history: readonly MessageParam[], current: Compaction | null, end: number, maxTokens: number): MessageCreateParamsBase {
  const messages = withoutThinking(applyCompaction(history.slice(0, end), current));
  const ask: MessageParam = { role: 'user', content: [{ type: 'text', text: summaryInstruction(maxTokens) }] };
  // Only what the prefix needs: no thinking (its budget would not fit this max_tokens).
  return addCacheBreakpoints({ model: base.model, max_tokens: maxTokens, ...(base.system ? { system: base.system } : {}), ...(base.tools ? { tools: base.tools } : {}), messages: [...structuredClone(messages), ask] });
}

const fits = (request: MessageCreateParamsBase, ratio: number, budget: number) => measureWith(request, ratio).tokens <= budget;

/**
 * A single turn too big for one summary request: long tool results are shortened first; if
 * that is not enough, the turn goes as plain text cut in the middle. Either way the request fits.
 */
function squeezed(request: MessageCreateParamsBase, ratio: number, budget: number): MessageCreateParamsBase {
  const shortened = { ...request, messages: shortenToolResults(request.messages, 0, true).messages };
  if (fits(shortened, ratio, budget)) return shortened;
  const instruction = request.messages.at(-1)!;
  const transcript = request.messages.slice(0, -1).map(transcriptLine).join('\n\n');
  const room = Math.max(1_000, Math.floor((budget / ratio - measureWith({ ...request, messages: [instruction] }, 1).estimate) * 3));
  const text = transcript.length <= room ? transcript : `${transcript.slice(0, room / 2)}\n\n[… ${transcript.length - room} characters left out …]\n\n${transcript.slice(-room / 2)}`;
  const blocks = typeof instruction.content === 'string' ? [{ type: 'text' as const, text: instruction.content }] : instruction.content;
  return { ...request, messages: [{ role: 'user', content: [{ type: 'text', text: `The conversation so far, as text:\n\n${text}` }, ...blocks] }] };
}

function transcriptLine(message: MessageParam): string {
  const who = message.role === 'user' ? 'User' : 'Claude';
  const blocks = typeof message.content === 'string' ? [{ type: 'text' as const, text: message.content }] : message.content;
  return blocks.map((block) => `${who}: ${blockText(block)}`).join('\n');
}

function blockText(block: ContentBlockParam): string {
  switch (block.type) {
    case 'text':
      return block.text;
    case 'tool_use':
      return `[called ${block.name} ${JSON.stringify(block.input)}]`;
    case 'tool_result':
      return `[tool result] ${typeof block.content === 'string' ? block.content : (block.content ?? []).map((b) => (b.type === 'text' ? b.text : `[${b.type}]`)).join('\n')}`;
    default:
      return `[${block.type}]`;
  }
}

/** Thinking blocks only go back inside a tool loop with thinking on; a summary request has neither. */
function withoutThinking(messages: MessageParam[]): MessageParam[] {
  const isThinking = (b: ContentBlockParam) => b.type === 'thinking' || b.type === 'redacted_thinking';
  return messages.map((m) => {
    if (typeof m.content === 'string' || !m.content.some(isThinking)) return m;
    const kept = m.content.filter((b) => !isThinking(b));
    return { ...m, content: kept.length ? kept : [{ type: 'text', text: '(thinking)' }] } as MessageParam;
  });
}

/** One summary request, with the loop's retries of API faults; the run shows "compacting" meanwhile. */
async function ask(request: MessageCreateParamsBase, deps: SummaryDeps): Promise<{ kind: 'done'; text: string } | Exclude<SummaryOutcome, { kind: 'done' }>> {
  const quiet = { append() {}, markStale() {}, dropStaleText() {} };
  const sent = deps.resolve ? await deps.resolve(request) : request;
  const outcome = await requestModelTurn(sent, {
    client: deps.client,
    signal: deps.signal,
    stallTimeoutMs: deps.stallTimeoutMs,
    retryPolicy: deps.retryPolicy,
    setState: (state) => deps.setState(state.status === 'running' ? { status: 'running', phase: 'compacting' } : state),
    reply: quiet,
  });
  if (outcome.kind === 'stopped') return outcome;
  if (outcome.kind === 'failed') return { kind: 'failed', error: outcome.error, retries: outcome.retries };
  deps.onUsage(outcome.message.usage, outcome.message.model);
  const text = outcome.message.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('\n').trim();
  if (!text) return { kind: 'failed', error: new Error('Claude wrote no summary.'), retries: 0 };
  return { kind: 'done', text };
}
