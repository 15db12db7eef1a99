import type { MessageParam } from '@anthropic-ai/sdk/resources/messages';

/**
 * Test helper: the problems that would make the Messages API refuse a history (roles not
 * alternating, a tool_use without exactly one tool_result in the next message, a stray result).
 * Returns them as sentences; an empty list means valid.
 */
export function historyProblems(history: readonly MessageParam[]): string[] {
  const problems: string[] = [];
  if (history[0] && history[0].role !== 'user') problems.push('history does not start with a user message');
  history.forEach((message, i) => {
    const prev = history[i - 1];
    if (prev && prev.role === message.role) problems.push(`messages ${i - 1} and ${i} are both ${message.role}`);
    const blocks = typeof message.content === 'string' ? [] : message.content;
    if (typeof message.content !== 'string' && blocks.length === 0) problems.push(`message ${i} is empty`);
    if (message.role !== 'assistant') return;
    const uses = blocks.filter((b) => b.type === 'tool_use').map((b) => (b as { id: string }).id);
    const next = history[i + 1];
    if (!next) return; // the history may end on an assistant turn
    const nextBlocks = typeof next.content === 'string' ? [] : next.content;
    const results = nextBlocks.filter((b) => b.type === 'tool_result').map((b) => (b as { tool_use_id: string }).tool_use_id);
    for (const id of uses) {
      const n = results.filter((r) => r === id).length;
      if (n !== 1) problems.push(`tool_use ${id} in message ${i} has ${n} tool_results`);
    }
    for (const id of results) if (!uses.includes(id)) problems.push(`tool_result ${id} in message ${i + 1} answers no tool_use`);
  });
  return problems;
}
