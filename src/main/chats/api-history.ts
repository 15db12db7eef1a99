import type { ContentBlockParam, MessageParam, ToolResultBlockParam } from '@anthropic-ai/sdk/resources/messages';

/**
 * Edits to the API history that keep it valid for the Messages API whatever happened (a stop,
 * a failed request, a dropped stream): roles alternate, no message is empty, and every tool_use
 * has exactly one tool_result in the next user message.
 */

function asBlocks(content: MessageParam['content']): ContentBlockParam[] {
  return typeof content === 'string' ? [{ type: 'text', text: content }] : [...content];
}

/** Adds user content, merging into a trailing user message (e.g. after a failed request). */
export function appendUser(history: MessageParam[], blocks: ContentBlockParam[]): void {
  if (blocks.length === 0) return;
  const last = history[history.length - 1];
  if (last?.role === 'user') {
    last.content = [...asBlocks(last.content), ...blocks];
  } else {
    history.push({ role: 'user', content: blocks });
  }
}

export function appendUserText(history: MessageParam[], text: string): void {
  appendUser(history, [{ type: 'text', text }]);
}

/** Adds an assistant turn; empty text blocks are dropped and an empty turn is not added at all. */
export function appendAssistant(history: MessageParam[], blocks: ContentBlockParam[]): void {
  const kept = blocks.filter((b) => !(b.type === 'text' && b.text.length === 0));
  if (kept.length === 0) return;
  const last = history[history.length - 1];
  if (last?.role === 'assistant') last.content = [...asBlocks(last.content), ...kept];
  else history.push({ role: 'assistant', content: kept });
}

/** tool_use ids of the latest assistant message that have no tool_result after it yet. */
export function unansweredToolUses(history: readonly MessageParam[]): string[] {
  const lastAssistant = history.findLastIndex((m) => m.role === 'assistant');
  const assistant = history[lastAssistant];
  if (!assistant || typeof assistant.content === 'string') return [];
  const next = history[lastAssistant + 1];
  const answered = new Set(
    next && typeof next.content !== 'string'
      ? next.content.filter((b) => b.type === 'tool_result').map((b) => (b as ToolResultBlockParam).tool_use_id)
      : [],
  );
  return assistant.content
    .filter((b) => b.type === 'tool_use')
    .map((b) => (b as { id: string }).id)
    .filter((id) => !answered.has(id));
}

/** Answers every open tool_use with an is_error result, e.g. when the user pressed Stop. */
export function closeOpenToolUses(history: MessageParam[], reason: string): void {
  const results: ToolResultBlockParam[] = unansweredToolUses(history).map((id) => ({
    type: 'tool_result',
    tool_use_id: id,
    content: reason,
    is_error: true,
  }));
  appendUser(history, results);
}

/**
 * Why the Messages API would refuse this history, in words, or null when it would take it: it
 * starts with the user, roles alternate, no message is empty, and every tool_result answers a
 * tool_use of the message just before it, each once. A history read from a log is checked with
 * this before a request is built from it (a log edited by hand can say anything). The last
 * tool calls may still wait for (some of) their results: restore-chat.ts closes those.
 */
export function apiHistoryProblem(history: readonly MessageParam[]): string | null {
  for (const [i, message] of history.entries()) {
    if (message.role !== 'user' && message.role !== 'assistant') return `message ${i} has the role "${String(message.role)}"`;
    if (i === 0 && message.role !== 'user') return 'it starts with an assistant message';
    if (i > 0 && history[i - 1]!.role === message.role) return `messages ${i - 1} and ${i} are both ${message.role} messages`;
    if (message.content.length === 0) return `message ${i} is empty`;
    if (message.role !== 'user') continue;
    const previous = history[i - 1];
    const uses = previous && typeof previous.content !== 'string' ? previous.content.filter((b) => b.type === 'tool_use').map((b) => (b as { id: string }).id) : [];
    const answered = new Set<string>();
    for (const block of typeof message.content === 'string' ? [] : message.content) {
      if (block.type !== 'tool_result') continue;
      const id = (block as ToolResultBlockParam).tool_use_id;
      if (!uses.includes(id)) return `message ${i} answers a tool call (${id}) that message ${i - 1} did not make`;
      if (answered.has(id)) return `message ${i} answers the tool call ${id} twice`;
      answered.add(id);
    }
    const open = uses.filter((id) => !answered.has(id));
    // The last message may still be collecting results (a run killed between two tools): restore-chat.ts closes them.
    if (open.length && i < history.length - 1) return `message ${i} leaves the tool call ${open[0]} of message ${i - 1} unanswered`;
  }
  return null;
}
