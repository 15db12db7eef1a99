import type { ContentBlockParam, MessageParam, ToolResultBlockParam } from '@anthropic-ai/sdk/resources/messages';
import type { Plan } from '../../../shared/plan';
import { turnStarts } from './compaction-cut';

/**
 * The API history as a request carries it: after a compaction, the summary stands in for the
 * messages before the cut, as the first text of the first message kept (a user turn's start, so
 * roles still alternate and no tool_result loses its tool_use). Pure functions over copies; the
 * history itself and the log always keep every message whole.
 */

export interface Compaction {
  /** API messages before this index are covered by `summary`. */
  upTo: number;
  summary: string;
}

/** A compaction still applies to this history: its cut is a user turn's start (an edit may have cut the history short). */
export function appliesTo(history: readonly MessageParam[], compaction: Compaction | null): compaction is Compaction {
  return !!compaction && compaction.upTo > 0 && turnStarts(history).includes(compaction.upTo);
}

export function summaryPreamble(compaction: Compaction): string {
  return [
    `[Waypoint compacted this chat to fit the model's context window. The ${compaction.upTo} earlier messages are replaced by this summary, written by Claude; the chat goes on verbatim after it. The user still sees the whole chat.]`,
    '<summary>',
    compaction.summary.trim(),
    '</summary>',
  ].join('\n');
}

const asBlocks = (content: MessageParam['content']): ContentBlockParam[] =>
  typeof content === 'string' ? [{ type: 'text', text: content }] : content;

/** The messages from the cut on, the first one opening with the summary. */
export function applyCompaction(messages: readonly MessageParam[], compaction: Compaction | null): MessageParam[] {
  if (!appliesTo(messages, compaction)) return [...messages];
  const first = messages[compaction.upTo]!;
  const opened: MessageParam = { role: 'user', content: [{ type: 'text', text: summaryPreamble(compaction) }, ...asBlocks(first.content)] };
  return [opened, ...messages.slice(compaction.upTo + 1)];
}

/** Every step's title and status, for the end of the request once older turns are out of it. */
export function planStateNote(plan: Plan | null): string | null {
  if (!plan || plan.steps.length === 0) return null;
  const steps = plan.steps.map((s) => `- [${s.status}] ${s.id}. ${s.title}`).join('\n');
  return `(Waypoint note: the plan as it stands now — "${plan.goal}", ${plan.status}, version ${plan.version}:\n${steps})`;
}

/** A text block at the end of the last (user) message: after its cache breakpoint, so it never breaks a cached prefix. */
export function withTailText(messages: readonly MessageParam[], text: string): MessageParam[] {
  const last = messages.at(-1);
  if (!last || last.role !== 'user') return [...messages];
  return [...messages.slice(0, -1), { ...last, content: [...asBlocks(last.content), { type: 'text', text }] }];
}

const SHORTEN_OVER_CHARS = 600;
const KEEP_CHARS = 300;

function resultText(block: ToolResultBlockParam): string {
  if (typeof block.content === 'string') return block.content;
  return (block.content ?? []).map((b) => (b.type === 'text' ? b.text : `[${b.type}]`)).join('\n');
}

const isLong = (block: ContentBlockParam): block is ToolResultBlockParam =>
  block.type === 'tool_result' && resultText(block).length > SHORTEN_OVER_CHARS;

/**
 * The last resort when the current turn alone is too big for the window (it is never
 * summarised): long tool results from `from` on are cut to their start — those of the newest
 * message only with `includeNewest`. Only tool_result content changes: tool_use blocks, their
 * ids, thinking blocks and the order stay. Returns the messages and how many were shortened.
 */
export function shortenToolResults(messages: readonly MessageParam[], from: number, includeNewest = false): { messages: MessageParam[]; count: number } {
  let count = 0;
  const shortened = messages.map((message, i) => {
    const newest = i === messages.length - 1 && !includeNewest;
    if (i < from || newest || typeof message.content === 'string' || !message.content.some(isLong)) return message;
    return {
      ...message,
      content: message.content.map((block) => {
        if (!isLong(block)) return block;
        count++;
        const text = resultText(block);
        return {
          ...block,
          content: `${text.slice(0, KEEP_CHARS)}\n… [Waypoint shortened this tool result from ${text.length} characters to fit the context window. Run the tool again if you need the rest.]`,
        };
      }),
    } as MessageParam;
  });
  return { messages: shortened, count };
}
