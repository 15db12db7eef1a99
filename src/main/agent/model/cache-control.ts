import type { MessageCreateParamsBase, TextBlockParam } from '@anthropic-ai/sdk/resources/messages';

const EPHEMERAL = { type: 'ephemeral' } as const;

/**
 * Prompt-caching breakpoints: the last tool (caches the tool list), the system prompt (tools +
 * system) and the last block of the last message (the whole conversation so far), so each turn
 * of a long loop re-reads everything before its newest message from the cache. Three of the
 * API's four breakpoints. The request must be a copy: the history itself never carries them.
 *
 * Cache hits need a byte-identical prefix, so nothing here may vary between turns except the
 * breakpoint moving to the newest message: no timestamps, and the objects are built in a fixed
 * key order (tests compare the serialized system and tools across a 20-turn run).
 */
export function addCacheBreakpoints(request: MessageCreateParamsBase): MessageCreateParamsBase {
  const system: TextBlockParam[] | undefined =
    typeof request.system === 'string'
      ? [{ type: 'text', text: request.system, cache_control: EPHEMERAL }]
      : request.system?.map((block, i, all) => (i === all.length - 1 ? { ...block, cache_control: EPHEMERAL } : block));
  const tools = request.tools?.map((tool, i, all) => (i === all.length - 1 ? { ...tool, cache_control: EPHEMERAL } : tool));
  const messages = request.messages.map((message, i, all) => {
    if (i !== all.length - 1) return message;
    const blocks = typeof message.content === 'string' ? [{ type: 'text' as const, text: message.content }] : message.content;
    if (blocks.length === 0) return message;
    const last = blocks[blocks.length - 1]!;
    // Thinking blocks cannot carry cache_control; the rest (text, tool_use, tool_result, image) can.
    if (last.type === 'thinking' || last.type === 'redacted_thinking') return message;
    return { ...message, content: [...blocks.slice(0, -1), { ...last, cache_control: EPHEMERAL }] };
  });
  return {
    ...request,
    ...(system ? { system } : {}),
    ...(tools ? { tools } : {}),
    messages: messages as MessageCreateParamsBase['messages'],
  };
}

/** A copy without the breakpoints: what a request says, for tests about content rather than caching. */
export function stripCacheControl<T>(value: T): T {
  return JSON.parse(JSON.stringify(value, (key, v: unknown) => (key === 'cache_control' ? undefined : v))) as T;
}
