/**
 * The checks the real Messages API makes that a client bug would trip: a 400 here is the same
 * 400 production would answer, so tests catch invalid histories (an empty assistant message, a
 * tool_use without its tool_result) instead of the real API doing it later.
 */

type Block = { type?: unknown; id?: unknown; tool_use_id?: unknown; text?: unknown };
type Msg = { role?: unknown; content?: unknown };

function blocksOf(m: Msg): Block[] {
  if (typeof m.content === 'string') return [{ type: 'text', text: m.content }];
  return Array.isArray(m.content) ? (m.content as Block[]) : [];
}

/** Returns the API's error message for an invalid request, or null when it is valid. */
export function checkRequest(body: unknown): string | null {
  if (typeof body !== 'object' || body === null) return 'Request body must be a JSON object.';
  const b = body as { model?: unknown; max_tokens?: unknown; messages?: unknown };
  if (typeof b.model !== 'string' || !b.model) return 'model: Field required';
  if (typeof b.max_tokens !== 'number' || b.max_tokens < 1) return 'max_tokens: Field required';
  if (!Array.isArray(b.messages) || b.messages.length === 0) return 'messages: at least one message is required';
  const messages = b.messages as Msg[];
  if (messages[0]?.role !== 'user') return 'messages: first message must use the "user" role';

  for (const [i, m] of messages.entries()) {
    if (m.role !== 'user' && m.role !== 'assistant') return `messages.${i}.role: Input should be 'user' or 'assistant'`;
    const blocks = blocksOf(m);
    const isFinal = i === messages.length - 1;
    if (blocks.length === 0 && !(isFinal && m.role === 'assistant')) {
      return `messages.${i}: all messages must have non-empty content except for the optional final assistant message`;
    }
    for (const block of blocks) {
      if (block.type === 'text' && (typeof block.text !== 'string' || block.text.length === 0)) {
        return `messages.${i}: text content blocks must be non-empty`;
      }
    }
    const toolUseIds = m.role === 'assistant' ? blocks.filter((x) => x.type === 'tool_use').map((x) => String(x.id)) : [];
    if (toolUseIds.length) {
      const next = messages[i + 1];
      const answered = new Set(next && next.role === 'user' ? blocksOf(next).filter((x) => x.type === 'tool_result').map((x) => String(x.tool_use_id)) : []);
      const missing = toolUseIds.filter((id) => !answered.has(id));
      if (missing.length) {
        return `messages.${i + 1}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${missing.join(', ')}. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.`;
      }
    }
    if (m.role === 'user') {
      const prev = messages[i - 1];
      const offered = new Set(prev && prev.role === 'assistant' ? blocksOf(prev).filter((x) => x.type === 'tool_use').map((x) => String(x.id)) : []);
      for (const block of blocks) {
        if (block.type === 'tool_result' && !offered.has(String(block.tool_use_id))) {
          return `messages.${i}.content: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${String(block.tool_use_id)}. Each \`tool_result\` block must have a corresponding \`tool_use\` block in the previous message.`;
        }
      }
    }
  }
  return null;
}
