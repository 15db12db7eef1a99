import { createHash, type Hash } from 'node:crypto';
import type { ContentBlockParam, MessageCreateParamsBase, MessageParam } from '@anthropic-ai/sdk/resources/messages';

/**
 * Preserved thinking (the 5.5 models and later): the API binds each thinking block to its prefix
 * — the system prompt, the tools and every message before it — and refuses a request that sends
 * a block back after any of that changed. Waypoint keeps its history append-only, but a few
 * things legitimately change the prefix mid-chat: an MCP server that connects (or a setting that
 * changes the tools or the system prompt), old tool results shortened near the context window,
 * earlier attachments left out of a full request. Rather than a 400, the request then leaves out
 * the thinking blocks whose prefix changed (Claude loses that reasoning, nothing else), as the
 * API's own "drop_block" would.
 *
 * Each block's prefix is remembered, by digest, when its reply arrives; before a request goes
 * out, every assistant message's thinking is checked against the prefix as it will be sent.
 * Blocks from before a restart are not known and go as they are.
 */

type Block = ContentBlockParam | { type: string; [key: string]: unknown };

const isThinking = (block: Block): boolean => block.type === 'thinking' || block.type === 'redacted_thinking';
const marker = (block: Block): string => {
  const b = block as { type: string; signature?: unknown; data?: unknown };
  return String(b.type === 'thinking' ? b.signature : b.data);
};

/** JSON as the API reads it: key order and cache breakpoints are not content; a string is one text block. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  const keys = Object.keys(value).filter((k) => k !== 'cache_control' && (value as Record<string, unknown>)[k] !== undefined).sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`).join(',')}}`;
}

const asBlocks = (content: MessageParam['content'] | string | undefined): Block[] =>
  typeof content === 'string' ? [{ type: 'text', text: content }] : ((content ?? []) as Block[]);

function startDigest(request: Pick<MessageCreateParamsBase, 'system' | 'tools'>): Hash {
  const hash = createHash('sha256');
  hash.update(canonical(asBlocks(request.system as string | undefined)));
  hash.update('\u0000');
  hash.update(canonical(request.tools ?? []));
  return hash;
}

const addMessage = (hash: Hash, message: MessageParam): void => {
  hash.update('\u0000');
  hash.update(canonical({ role: message.role, content: asBlocks(message.content) }));
};

export class ThinkingPrefixes {
  /** A block's signature (or redacted data) → the digest of the prefix it was produced after. */
  private readonly produced = new Map<string, string>();

  /** After a reply: its thinking blocks were produced after exactly this request. */
  remember(sent: Pick<MessageCreateParamsBase, 'system' | 'tools' | 'messages'>, reply: readonly Block[]): void {
    const markers = reply.filter(isThinking).map(marker);
    if (markers.length === 0) return;
    const hash = startDigest(sent);
    for (const message of sent.messages) addMessage(hash, message);
    const digest = hash.digest('hex');
    for (const m of markers) this.produced.set(m, digest);
  }

  /**
   * The request with the thinking of every assistant message whose prefix changed since it was
   * produced left out. When that empties the current tool loop's first message of its thinking,
   * the request goes without `thinking` (the API wants that message to start with its thinking).
   */
  keepValid<R extends MessageCreateParamsBase>(request: R): R {
    if (this.produced.size === 0) return request;
    const hash = startDigest(request);
    let changed = false;
    const messages = request.messages.map((message) => {
      let out = message;
      const blocks = asBlocks(message.content);
      if (message.role === 'assistant' && blocks.some(isThinking)) {
        const digest = hash.copy().digest('hex');
        const stale = blocks.filter(isThinking).some((b) => {
          const bound = this.produced.get(marker(b));
          return bound !== undefined && bound !== digest;
        });
        if (stale) {
          changed = true;
          const kept = blocks.filter((b) => !isThinking(b));
          out = { ...message, content: (kept.length ? kept : [{ type: 'text', text: '…' }]) as ContentBlockParam[] };
        }
      }
      addMessage(hash, out);
      return out;
    });
    if (!changed) return request;
    const next = { ...request, messages };
    if (next.thinking && next.thinking.type !== 'disabled' && !loopStartsWithThinking(messages)) delete next.thinking;
    return next;
  }
}

/** Whether the current tool loop (if the request continues one) still starts with thinking. */
function loopStartsWithThinking(messages: readonly MessageParam[]): boolean {
  const isResult = (m: MessageParam) => m.role === 'user' && asBlocks(m.content).some((b) => b.type === 'tool_result');
  if (!messages.length || !isResult(messages.at(-1)!)) return true;
  let first: MessageParam | undefined;
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i]!;
    if (m.role === 'assistant') first = m;
    else if (!isResult(m)) break;
  }
  const head = first ? asBlocks(first.content)[0] : undefined;
  return !!head && isThinking(head);
}

const perChat = new WeakMap<object, ThinkingPrefixes>();

/** The chat's record of its thinking blocks' prefixes (in memory: a restart starts it afresh). */
export function thinkingPrefixesOf(chat: object): ThinkingPrefixes {
  let prefixes = perChat.get(chat);
  if (!prefixes) perChat.set(chat, (prefixes = new ThinkingPrefixes()));
  return prefixes;
}
