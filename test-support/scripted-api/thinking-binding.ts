import { createHash } from 'node:crypto';
import type { ThinkingSigner } from './thinking-signatures';

/**
 * Preserved thinking (Claude Sonnet 5.5, Opus 5.5, Haiku 5.5, Fable and Mythos 5.x): a thinking
 * block stays in context across turns, and is bound to its prefix — the system prompt, the tools
 * and everything before it. When any of that changed since Claude produced the block (a rebuilt
 * system prompt, a tool added, an earlier message rewritten, shortened or left out, a thinking
 * block between others dropped), the API refuses the request, by default for every account
 * created since 31 August 2026. Prompt-cache breakpoints are not content and do not count.
 */

export const PRESERVED_THINKING_MODEL = /^claude-(?:(?:opus|sonnet|haiku)-5-5|fable-5-\d+|mythos-5-\d+)(?:-\d{8})?$/;

export const preservesThinking = (model: unknown): boolean => typeof model === 'string' && PRESERVED_THINKING_MODEL.test(model);

type Json = unknown;
type Msg = { role?: unknown; content?: unknown };
type Block = Record<string, unknown> & { type?: unknown };

/** Content as the API reads it: a string is one text block, and cache_control is no part of it. */
function canonical(value: Json): Json {
  if (Array.isArray(value)) return value.map(canonical);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, Json> = {};
  for (const key of Object.keys(value).sort()) {
    if (key === 'cache_control') continue;
    out[key] = canonical((value as Record<string, Json>)[key]);
  }
  return out;
}

const blocksOf = (content: unknown): Json[] => (typeof content === 'string' ? [{ type: 'text', text: content }] : Array.isArray(content) ? content : []);

/** The digest of what comes before block `block` of message `message`. */
export function prefixDigest(body: Record<string, unknown>, messages: readonly Msg[], message: number, block: number): Buffer {
  const before = messages.slice(0, message).map((m) => ({ role: m.role, content: blocksOf(m.content) }));
  const current = messages[message];
  const prefix = {
    system: body.system === undefined ? [] : blocksOf(body.system),
    tools: body.tools ?? [],
    messages: [...before, { role: current?.role, content: blocksOf(current?.content).slice(0, block) }],
  };
  return createHash('sha256').update(JSON.stringify(canonical(prefix))).digest();
}

/** Signs a reply's thinking blocks for the request that produced them (its prefix digests). */
export function signReply(body: Record<string, unknown>, content: Array<Record<string, unknown>>, signer: ThinkingSigner): void {
  const messages = [...((body.messages as Msg[] | undefined) ?? []), { role: 'assistant', content }];
  const at = messages.length - 1;
  for (const [j, block] of content.entries()) {
    // The reply's earlier blocks are part of the prefix; a block's own signature is not.
    if (block.type === 'thinking') block.signature = signer.sign(String(block.thinking), prefixDigest(body, messages, at, j));
    else if (block.type === 'redacted_thinking') block.data = signer.redacted(prefixDigest(body, messages, at, j));
  }
}

/**
 * The API's prefix check on every thinking block a request sends back to a model with
 * preserved thinking, with its messages; null when every block is intact and bound to this prefix.
 */
export function checkPrefixes(body: Record<string, unknown>, signer: ThinkingSigner): string | null {
  if (!preservesThinking(body.model)) return null;
  const messages = (body.messages as Msg[] | undefined) ?? [];
  for (const [i, m] of messages.entries()) {
    if (m.role !== 'assistant') continue;
    for (const [j, block] of (blocksOf(m.content) as Block[]).entries()) {
      if (block.type !== 'thinking' && block.type !== 'redacted_thinking') continue;
      const bound = block.type === 'thinking' ? signer.open(String(block.thinking), String(block.signature)) : signer.openRedacted(String(block.data));
      if (!bound) return `messages.${i}.content.${j}: Invalid \`signature\` in \`thinking\` block`;
      if (!bound.equals(prefixDigest(body, messages, i, j))) {
        return `messages.${i}.content.${j}: Invalid \`signature\` in \`thinking\` block. The block is bound to a different conversation. Remove the block, or set \`thinking.block_binding.prefix_mismatch_behavior\` to "drop_block". That setting requires the \`thinking-binding-controls-2026-08-01\` value in the \`anthropic-beta\` header.`;
      }
    }
  }
  return null;
}
