/**
 * Test support for long chats against the scripted server: replies that depend on what was
 * asked (a summary request gets a summary of the topics it saw), a model with a small context
 * window, and checks over every request the server received.
 */
import { SUMMARY_REQUEST_MARK } from '../../src/main/agent/context/compaction-summary';
import type { ScriptedModel } from '../scripted-api/models-page';
import type { ScriptedTurn } from '../scripted-api/scenario';
import { lastUserText } from '../scripted-api/message-builder';

/** The harness's model (chat-test-harness.ts settingsSource) with a window small enough to fill in a few turns. */
export function smallWindowModel(maxInputTokens: number, maxTokens = 1_024, id = 'claude-sonnet-4-6'): ScriptedModel {
  return { id, display_name: 'Claude Sonnet 4.6 (small window)', max_input_tokens: maxInputTokens, max_tokens: maxTokens };
}

export function isSummaryRequest(body: unknown): boolean {
  return lastUserText((body as { messages?: unknown }).messages).startsWith(SUMMARY_REQUEST_MARK);
}

/**
 * "Topic 12", "topic 40", "topics 1 to 56": the labels a long chat's messages and summaries
 * carry, ascending.
 */
export function topicsIn(value: unknown): number[] {
  const text = JSON.stringify(value);
  const found = new Set([...text.matchAll(/[Tt]opic (\d+)/g)].map((m) => Number(m[1])));
  for (const [, from, to] of text.matchAll(/topics (\d+) to (\d+)/g)) for (let n = Number(from); n <= Number(to); n++) found.add(n);
  return [...found].sort((a, b) => a - b);
}

/** "topics 1 to 56, topic 58": the topics as runs, so a summary stays short however long the chat. */
function asRuns(topics: number[]): string {
  const runs: string[] = [];
  for (let i = 0; i < topics.length; ) {
    let j = i;
    while (j + 1 < topics.length && topics[j + 1] === topics[j]! + 1) j++;
    runs.push(j > i ? `topics ${topics[i]} to ${topics[j]}` : `topic ${topics[i]}`);
    i = j + 1;
  }
  return runs.join(', ');
}

const FILLER =
  'It covers the background, the trade-offs between the two designs, what to measure first, and the next step to take once the numbers are in.';

/** The user's n-th message: about topic n, long enough to fill a small window in a few turns. */
export function userMessage(n: number): string {
  return `Please explain topic ${n} in a few sentences. ${FILLER}`;
}

/**
 * A scripted server's `respond`: a summary request gets "Summary: … topics 1 to 9, …" (every topic
 * the summarised part mentions, so a test sees what a summary covered); any other request gets
 * a reply about the topic of its last user message.
 */
export function longChatResponder(body: Record<string, unknown>): ScriptedTurn {
  const fast = { delayMs: 0, chunkChars: 4_000 };
  if (isSummaryRequest(body)) {
    const messages = (body.messages as unknown[]).slice(0, -1);
    return { kind: 'text', text: `Summary: the user asked about ${asRuns(topicsIn(messages))}.`, ...fast };
  }
  const topic = topicsIn(lastUserText(body.messages)).at(-1) ?? 0;
  return { kind: 'text', text: `Topic ${topic}, briefly: ${FILLER} ${FILLER}`, ...fast };
}

/**
 * A responder that makes Claude's planning calls at given topics (in order, one per request of
 * that turn) and answers like `longChatResponder` otherwise.
 */
export function planningResponder(planning: Record<number, ScriptedTurn[]>): (body: Record<string, unknown>) => ScriptedTurn {
  const used = new Map<number, number>();
  return (body) => {
    if (isSummaryRequest(body)) return longChatResponder(body);
    // The topic of the user's latest message (tool results and Waypoint's notes after it have none).
    const topic = Number([...JSON.stringify(body.messages).matchAll(/Please explain topic (\d+)/g)].at(-1)?.[1] ?? 0);
    const step = used.get(topic) ?? 0;
    used.set(topic, step + 1);
    return planning[topic]?.[step] ?? longChatResponder(body);
  };
}
