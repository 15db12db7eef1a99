/**
 * The checks the real Messages API makes that a client bug would trip: a 400 here is the same
 * 400 production would answer, so tests catch invalid histories (an empty assistant message, a
 * tool_use without its tool_result, two user turns in a row, a result before its call) instead
 * of the real API doing it later. Where the API is more forgiving than this (it merges
 * consecutive same-role turns), this is stricter on purpose: Waypoint never needs the leniency,
 * and a history that relies on it is a bug waiting for the next API change.
 */

type Block = Record<string, unknown> & { type?: unknown };
type Msg = { role?: unknown; content?: unknown };

const TOOL_ID = /^[a-zA-Z0-9_-]+$/;
const TOOL_NAME = /^[a-zA-Z0-9_-]{1,128}$/;
const MAX_CACHE_BREAKPOINTS = 4;

const USER_BLOCKS = new Set(['text', 'image', 'document', 'tool_result', 'search_result']);
const ASSISTANT_BLOCKS = new Set(['text', 'tool_use', 'thinking', 'redacted_thinking', 'server_tool_use', 'web_search_tool_result']);
const RESULT_CONTENT_BLOCKS = new Set(['text', 'image', 'document', 'search_result']);

function blocksOf(m: Msg): Block[] {
  if (typeof m.content === 'string') return [{ type: 'text', text: m.content }];
  return Array.isArray(m.content) ? (m.content as Block[]) : [];
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Returns the API's error message for an invalid request, or null when it is valid. */
export function checkRequest(body: unknown): string | null {
  if (!isObject(body)) return 'Request body must be a JSON object.';
  const b = body as { model?: unknown; max_tokens?: unknown; messages?: unknown; tools?: unknown; system?: unknown };
  if (typeof b.model !== 'string' || !b.model) return 'model: Field required';
  if (typeof b.max_tokens !== 'number' || !Number.isInteger(b.max_tokens) || b.max_tokens < 1) return 'max_tokens: Field required';
  if (!Array.isArray(b.messages) || b.messages.length === 0) return 'messages: at least one message is required';
  return checkTools(b.tools) ?? checkToolChoice((body as { tool_choice?: unknown }).tool_choice, b.tools) ?? checkSystem(b.system) ?? checkMessages(b.messages as Msg[]) ?? checkCacheControl(body);
}

/** tool_choice as the API takes it: a known type, and a forced tool that the request offers. */
function checkToolChoice(choice: unknown, tools: unknown): string | null {
  if (choice === undefined) return null;
  if (!isObject(choice)) return 'tool_choice: Input should be a valid dictionary';
  if (!['auto', 'any', 'tool', 'none'].includes(String(choice.type))) return "tool_choice.type: Input should be 'auto', 'any', 'tool' or 'none'";
  const offered = Array.isArray(tools) ? (tools as Array<{ name?: unknown }>).map((t) => t.name) : [];
  if ((choice.type === 'any' || choice.type === 'tool') && offered.length === 0) return 'tool_choice: tool_choice may only be specified while providing tools.';
  if (choice.type === 'tool') {
    if (typeof choice.name !== 'string') return 'tool_choice.tool.name: Field required';
    if (!offered.includes(choice.name)) return `tool_choice: Tool '${choice.name}' not found in provided tools`;
  }
  return null;
}

function checkTools(tools: unknown): string | null {
  if (tools === undefined) return null;
  if (!Array.isArray(tools)) return 'tools: Input should be a valid list';
  const names = new Set<string>();
  for (const [i, tool] of tools.entries()) {
    if (!isObject(tool)) return `tools.${i}: Input should be a valid dictionary`;
    if (typeof tool.name !== 'string' || !TOOL_NAME.test(tool.name)) return `tools.${i}.name: String should match pattern '^[a-zA-Z0-9_-]{1,128}$'`;
    if (names.has(tool.name)) return `tools: Tool names must be unique. Duplicate: ${tool.name}`;
    names.add(tool.name);
    if (tool.type === undefined || tool.type === 'custom') {
      if (!isObject(tool.input_schema) || tool.input_schema.type !== 'object') return `tools.${i}.input_schema.type: Input should be 'object'`;
    }
  }
  return null;
}

function checkSystem(system: unknown): string | null {
  if (system === undefined || typeof system === 'string') return null;
  if (!Array.isArray(system)) return 'system: Input should be a valid string or list';
  for (const [i, block] of system.entries()) {
    if (!isObject(block) || block.type !== 'text' || typeof block.text !== 'string') return `system.${i}: Input should be a text block`;
    if (block.text.trim() === '') return `system.${i}: text content blocks must contain non-whitespace text`;
  }
  return null;
}

function checkMessages(messages: Msg[]): string | null {
  if (messages[0]?.role !== 'user') return 'messages: first message must use the "user" role';
  const seenToolUseIds = new Set<string>();
  for (const [i, m] of messages.entries()) {
    if (!isObject(m)) return `messages.${i}: Input should be a valid dictionary`;
    if (m.role !== 'user' && m.role !== 'assistant') return `messages.${i}.role: Input should be 'user' or 'assistant'`;
    if (typeof m.content !== 'string' && !Array.isArray(m.content)) return `messages.${i}.content: Input should be a valid string or list`;
    const prev = messages[i - 1];
    if (prev && prev.role === m.role) {
      return `messages: roles must alternate between "user" and "assistant", but found multiple "${String(m.role)}" roles in a row (messages.${i - 1} and messages.${i})`;
    }
    const blocks = blocksOf(m);
    const isFinal = i === messages.length - 1;
    if (blocks.length === 0 && !(isFinal && m.role === 'assistant')) {
      return `messages.${i}: all messages must have non-empty content except for the optional final assistant message`;
    }
    const allowed = m.role === 'user' ? USER_BLOCKS : ASSISTANT_BLOCKS;
    for (const [j, block] of blocks.entries()) {
      if (!isObject(block) || typeof block.type !== 'string') return `messages.${i}.content.${j}: Input should be a valid content block`;
      if (!allowed.has(block.type)) return `messages.${i}.content.${j}.type: a "${block.type}" block is not allowed in a "${String(m.role)}" message`;
      const problem = checkBlock(block, `messages.${i}.content.${j}`, seenToolUseIds);
      if (problem) return problem;
    }
    if (isFinal && m.role === 'assistant') {
      const last = blocks.at(-1);
      if (last?.type === 'text' && typeof last.text === 'string' && /\s$/.test(last.text)) return 'messages: final assistant content cannot end with trailing whitespace';
    }
    const pairing = m.role === 'assistant' ? checkResultsFollow(messages, i, blocks) : checkResultsAnswer(messages, i, blocks);
    if (pairing) return pairing;
  }
  return null;
}

function checkBlock(block: Block, where: string, seenToolUseIds: Set<string>): string | null {
  switch (block.type) {
    case 'text':
      if (typeof block.text !== 'string' || block.text.length === 0) return `${where}: text content blocks must be non-empty`;
      if (block.text.trim() === '') return `${where}: text content blocks must contain non-whitespace text`;
      return null;
    case 'tool_use': {
      if (typeof block.id !== 'string' || !TOOL_ID.test(block.id)) return `${where}.id: String should match pattern '^[a-zA-Z0-9_-]+$'`;
      if (seenToolUseIds.has(block.id)) return `${where}: \`tool_use\` ids must be unique; ${block.id} appears more than once`;
      seenToolUseIds.add(block.id);
      if (typeof block.name !== 'string' || !TOOL_NAME.test(block.name)) return `${where}.name: String should match pattern '^[a-zA-Z0-9_-]{1,128}$'`;
      if (!isObject(block.input)) return `${where}.input: Input should be a valid dictionary`;
      return null;
    }
    case 'tool_result': {
      if (typeof block.tool_use_id !== 'string' || !TOOL_ID.test(block.tool_use_id)) return `${where}.tool_use_id: String should match pattern '^[a-zA-Z0-9_-]+$'`;
      if (block.is_error !== undefined && typeof block.is_error !== 'boolean') return `${where}.is_error: Input should be a valid boolean`;
      const content = block.content;
      if (content === undefined || typeof content === 'string') return null;
      if (!Array.isArray(content)) return `${where}.content: Input should be a valid string or list`;
      for (const [k, inner] of content.entries()) {
        if (!isObject(inner) || typeof inner.type !== 'string' || !RESULT_CONTENT_BLOCKS.has(inner.type)) return `${where}.content.${k}: Input should be a text, image or document block`;
        if (inner.type === 'text' && (typeof inner.text !== 'string' || inner.text.trim() === '')) return `${where}.content.${k}: text content blocks must contain non-whitespace text`;
      }
      return null;
    }
    case 'thinking':
      if (typeof block.signature !== 'string' || block.signature.length === 0) return `${where}.signature: Field required`;
      if (typeof block.thinking !== 'string') return `${where}.thinking: Field required`;
      return null;
    case 'redacted_thinking':
      return typeof block.data === 'string' ? null : `${where}.data: Field required`;
    default:
      return null;
  }
}

/** Every tool_use of an assistant turn is answered exactly once by the very next (user) message. */
function checkResultsFollow(messages: Msg[], i: number, blocks: Block[]): string | null {
  const ids = blocks.filter((x) => x.type === 'tool_use').map((x) => String(x.id));
  if (ids.length === 0) return null;
  const next = messages[i + 1];
  const answered = next && next.role === 'user' ? blocksOf(next).filter((x) => x.type === 'tool_result').map((x) => String(x.tool_use_id)) : [];
  const missing = ids.filter((id) => !answered.includes(id));
  if (missing.length) {
    return `messages.${i + 1}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${missing.join(', ')}. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.`;
  }
  return null;
}

/** A user turn's tool_results answer the previous assistant turn's tool_use blocks, once each, before any other content. */
function checkResultsAnswer(messages: Msg[], i: number, blocks: Block[]): string | null {
  const prev = messages[i - 1];
  const offered = new Set(prev && prev.role === 'assistant' ? blocksOf(prev).filter((x) => x.type === 'tool_use').map((x) => String(x.id)) : []);
  const answered = new Set<string>();
  let seenOther = false;
  for (const block of blocks) {
    if (block.type !== 'tool_result') {
      seenOther = true;
      continue;
    }
    const id = String(block.tool_use_id);
    if (!offered.has(id)) {
      return `messages.${i}.content: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${id}. Each \`tool_result\` block must have a corresponding \`tool_use\` block in the previous message.`;
    }
    if (answered.has(id)) return `messages.${i}.content: each \`tool_use\` must have a single result. Found multiple \`tool_result\` blocks with id: ${id}`;
    answered.add(id);
    if (seenOther) return `messages.${i}.content: \`tool_result\` blocks must come first in the message content, before any other block`;
  }
  return null;
}

/** The API allows at most four cache breakpoints per request (tools, system and messages together). */
function checkCacheControl(body: Record<string, unknown>): string | null {
  let count = 0;
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) value.forEach(visit);
    else if (isObject(value)) {
      if (isObject(value.cache_control)) count++;
      for (const [key, inner] of Object.entries(value)) if (key !== 'cache_control' && key !== 'input') visit(inner);
    }
  };
  visit(body.tools);
  visit(body.system);
  visit(body.messages);
  return count > MAX_CACHE_BREAKPOINTS ? `A maximum of ${MAX_CACHE_BREAKPOINTS} blocks with cache_control may be provided. Found ${count}.` : null;
}
