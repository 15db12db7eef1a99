import { modelCapabilities, type ScriptedModel } from './models-page';
import type { ThinkingSigner } from './thinking-signatures';

/**
 * The API's checks on extended thinking, with its messages: the `thinking` parameter (types the
 * model takes, budget_tokens ≥ 1024 and below max_tokens; no temperature, top_k or forced tool
 * use beside it), and the rule that makes tool loops
 * with thinking hard to get right: the latest assistant turn's thinking blocks must come back
 * exactly as sent (signatures verify; none dropped), and when thinking is on, that turn must
 * start with one.
 */

type Block = Record<string, unknown> & { type?: unknown };
type Msg = { role?: unknown; content?: unknown };

const DOCS = 'https://docs.claude.com/en/docs/build-with-claude/extended-thinking';
const EFFORTS = new Set(['low', 'medium', 'high', 'xhigh', 'max']);

/** The thinking blocks (as their signatures or redacted data) of each reply the server gave, by its tool_use ids. */
export type IssuedThinking = Map<string, string[]>;

const blocksOf = (m: Msg): Block[] => (typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : Array.isArray(m.content) ? (m.content as Block[]) : []);
const hasToolResult = (m: Msg): boolean => m.role === 'user' && blocksOf(m).some((b) => b.type === 'tool_result');
const isThinking = (b: Block): boolean => b.type === 'thinking' || b.type === 'redacted_thinking';
const marker = (b: Block): string => String(b.type === 'thinking' ? b.signature : b.data);

export function checkThinking(body: Record<string, unknown>, signer: ThinkingSigner, issued: IssuedThinking, models: readonly ScriptedModel[]): string | null {
  const thinking = body.thinking as Record<string, unknown> | undefined;
  const on = thinking?.type === 'enabled' || thinking?.type === 'adaptive';
  const problem = (thinking === undefined ? null : checkParameter(body, thinking, models)) ?? (on ? checkCompatibility(body) : null);
  if (problem) return problem;
  const effort = (body.output_config as { effort?: unknown } | undefined)?.effort;
  if (effort !== undefined && effort !== null && !EFFORTS.has(String(effort))) {
    return `output_config.effort: Input should be 'low', 'medium', 'high', 'xhigh' or 'max'`;
  }
  const messages = (body.messages as Msg[]) ?? [];
  const latest = messages.findLastIndex((m) => m.role === 'assistant');
  if (latest === -1) return null;

  // The latest assistant message's thinking must verify: changed text or signature, or changed data, is refused.
  for (const [j, block] of blocksOf(messages[latest]!).entries()) {
    const intact = block.type === 'thinking' ? signer.verify(String(block.thinking), String(block.signature)) : block.type === 'redacted_thinking' ? signer.verifyRedacted(String(block.data)) : true;
    if (!intact) return modified(latest, j);
  }
  if (!on || !hasToolResult(messages.at(-1) ?? {})) return null;

  // A tool loop with thinking on: the turn's first assistant message starts with its thinking …
  let first = latest;
  for (let i = latest; i >= 0; i--) {
    const m = messages[i]!;
    if (m.role === 'assistant') first = i;
    else if (!hasToolResult(m)) break;
  }
  const head = blocksOf(messages[first]!)[0];
  if (!head || !isThinking(head)) {
    return `messages.${first}.content.0.type: Expected \`thinking\` or \`redacted_thinking\`, but found \`${String(head?.type ?? 'nothing')}\`. When \`thinking\` is enabled, a final \`assistant\` message must start with a thinking block (preceeding the lastmost set of \`tool_use\` and \`tool_result\` blocks). We recommend you include thinking blocks from previous turns. To avoid this requirement, disable \`thinking\`. Please consult our documentation at ${DOCS}`;
  }
  // … and the latest one has every thinking block its reply had, in order.
  const blocks = blocksOf(messages[latest]!);
  const sent = blocks.filter(isThinking).map(marker);
  for (const toolUse of blocks.filter((b) => b.type === 'tool_use')) {
    const original = issued.get(String(toolUse.id));
    if (original && original.join('\n') !== sent.join('\n')) return modified(latest, Math.max(0, blocks.findIndex(isThinking)));
  }
  return null;
}

function modified(i: number, j: number): string {
  return `messages.${i}.content.${j}: \`thinking\` or \`redacted_thinking\` blocks in the latest assistant message cannot be modified. These blocks must remain as they were in the original response.`;
}

/** What thinking does not go with (the docs' "feature compatibility"): sampling changes and forced tool use. */
function checkCompatibility(body: Record<string, unknown>): string | null {
  if (body.temperature !== undefined && body.temperature !== 1) {
    return `\`temperature\` may only be set to 1 when thinking is enabled. Please consult our documentation at ${DOCS}#feature-compatibility`;
  }
  if (body.top_k !== undefined) return `\`top_k\` is not supported when thinking is enabled. Please consult our documentation at ${DOCS}#feature-compatibility`;
  if (typeof body.top_p === 'number' && (body.top_p < 0.95 || body.top_p > 1)) {
    return `\`top_p\` must be between 0.95 and 1 when thinking is enabled. Please consult our documentation at ${DOCS}#feature-compatibility`;
  }
  const choice = (body.tool_choice as { type?: unknown } | undefined)?.type;
  if (choice === 'any' || choice === 'tool') return 'Thinking may not be enabled when tool_choice forces tool use.';
  return null;
}

function checkParameter(body: Record<string, unknown>, thinking: Record<string, unknown>, models: readonly ScriptedModel[]): string | null {
  const caps = modelCapabilities(models, String(body.model));
  switch (thinking.type) {
    case 'disabled':
      return null;
    case 'adaptive':
      if (caps && !caps.thinking.types.adaptive.supported) return `thinking.type: adaptive thinking is not supported on this model. Use thinking.type "enabled" with budget_tokens.`;
      if (thinking.display !== undefined && thinking.display !== null && thinking.display !== 'summarized' && thinking.display !== 'omitted') {
        return `thinking.adaptive.display: Input should be 'summarized' or 'omitted'`;
      }
      return null;
    case 'enabled': {
      if (caps && !caps.thinking.types.enabled.supported) return `thinking.type: "enabled" is not supported on this model; use thinking.type "adaptive" with output_config.effort.`;
      const budget = thinking.budget_tokens;
      if (typeof budget !== 'number' || !Number.isInteger(budget)) return 'thinking.enabled.budget_tokens: Field required';
      if (budget < 1024) return 'thinking.enabled.budget_tokens: Input should be greater than or equal to 1024';
      if (typeof body.max_tokens === 'number' && body.max_tokens <= budget) {
        return `\`max_tokens\` must be greater than \`thinking.budget_tokens\`. Please consult our documentation at ${DOCS}#max-tokens-and-context-window-size`;
      }
      return null;
    }
    default:
      return `thinking.type: Input tag '${String(thinking.type)}' found using 'type' does not match any of the expected tags: 'enabled', 'disabled', 'adaptive'`;
  }
}

/** Remembers the thinking of a reply under its tool_use ids, for the check of the next request. */
export function recordIssued(issued: IssuedThinking, content: ReadonlyArray<Record<string, unknown>>): void {
  const thinking = content.filter((b) => isThinking(b as Block)).map((b) => marker(b as Block));
  if (!thinking.length) return;
  for (const block of content) if (block.type === 'tool_use') issued.set(String(block.id), thinking);
}
