import type { ScriptedTurn } from '../test-support/scripted-api/scenario';
import { longReply } from './streaming-text';

/**
 * What each of the many chats streams (bench/many-chats.ts): a plan of `steps` steps worked
 * through one step a reply, each reply a long Markdown text streamed before its planning calls,
 * then a closing text. The scripted server answers by looking at the request (`respond`): the chat
 * is named in its first user message, the reply's number is the count of assistant messages so
 * far, so chats can interleave in any order and each still gets its own script.
 */
export interface ManyChatsScript {
  steps: number;
  /** Tokens of text in each reply (≈ 4 characters a token). */
  tokensPerReply: number;
  /** Characters per text delta and the pause between deltas: the streaming rate. */
  chunkChars: number;
  delayMs: number;
}

/** Replies per chat: the plan's creation, one per step, and the closing text. */
export const repliesPerChat = (script: ManyChatsScript): number => script.steps + 2;

/** The text of chat `chat`'s reply `reply` (0-based): distinct per chat and reply, so a lost or swapped delta shows. */
export function replyText(script: ManyChatsScript, chat: number, reply: number): string {
  return `Chat ${chat}, reply ${reply}.\n\n${longReply(script.tokensPerReply)}`;
}

export const firstMessage = (chat: number): string => `Chat ${chat}: work through the plan.`;

/** The turn for a request, or undefined when it is not one of ours (left to the scenario). */
export function manyChatsTurn(script: ManyChatsScript, body: Record<string, unknown>): ScriptedTurn | undefined {
  const messages = Array.isArray(body.messages) ? (body.messages as Array<{ role?: string; content?: unknown }>) : [];
  const first = messages[0];
  const firstText = typeof first?.content === 'string' ? first.content : Array.isArray(first?.content) ? (first.content as Array<{ type?: string; text?: string }>).map((b) => b.text ?? '').join('\n') : '';
  const match = /Chat (\d+): work through the plan\./.exec(firstText);
  if (!match) return undefined;
  const chat = Number(match[1]);
  const reply = messages.filter((m) => m.role === 'assistant').length;
  const pace = { chunkChars: script.chunkChars, delayMs: script.delayMs };
  const text = replyText(script, chat, reply);
  if (reply === 0) {
    const steps = Array.from({ length: script.steps }, (_, i) => ({ step_number: i + 1, description: `Chat ${chat} step ${i + 1}` }));
    return { kind: 'tool_use', text, calls: [{ name: 'create_plan', input: { goal: `Chat ${chat}`, steps } }], ...pace };
  }
  if (reply <= script.steps) {
    const calls = [
      { name: 'update_plan', input: { action: 'start_step', step_number: reply } },
      { name: 'update_plan', input: { action: 'complete_step', step_number: reply, result: 'done' } },
    ];
    return { kind: 'tool_use', text, calls, ...pace };
  }
  return { kind: 'text', text, ...pace };
}
