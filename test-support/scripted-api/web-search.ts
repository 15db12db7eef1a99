import { createHmac, randomBytes } from 'node:crypto';
import { apiId } from './ids';
import type { ScriptedTurn } from './scenario';
import type { WireCitation, WireContentBlock, WireSearchResult } from './wire-types';

/**
 * The Messages API's server-side web search, as strictly as the real API plays it: the tool's
 * definition (`web_search_20250305`, name `web_search`, a positive max_uses, no unknown fields,
 * not both domain lists), the searches a reply makes (server_tool_use, then its
 * web_search_tool_result, at most max_uses per request, the rest max_uses_exceeded), and the
 * history that comes back: each server_tool_use with its result right after it in the same
 * message, results and citations exactly as sent (their encrypted parts verify), and never a
 * client tool_result for a server tool's id.
 */

export const WEB_SEARCH_TYPE = 'web_search_20250305';
const TOOL_KEYS = new Set(['type', 'name', 'max_uses', 'allowed_domains', 'blocked_domains', 'user_location', 'cache_control']);
const CITED_TEXT_MAX = 150;

type Block = Record<string, unknown> & { type?: unknown };
type Msg = { role?: unknown; content?: unknown };
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const blocksOf = (m: Msg): Block[] => (Array.isArray(m.content) ? (m.content as Block[]) : []);

/** Seals what a result says (and what a citation points at), so a changed copy no longer opens. */
export class SearchSealer {
  private readonly key = randomBytes(32);

  private mac(kind: string, ...parts: string[]): Buffer {
    const h = createHmac('sha256', this.key).update(`${kind}\0`);
    for (const part of parts) h.update(part).update('\0');
    return h.digest();
  }

  seal(url: string, title: string, text: string): string {
    const body = Buffer.from(text, 'utf8');
    return Buffer.concat([this.mac('result', url, title, text), body]).toString('base64');
  }

  /** The page's text, or null when the sealed content or its url/title were changed. */
  open(url: string, title: string, sealed: string): string | null {
    const raw = Buffer.from(sealed, 'base64');
    if (raw.length < 32 || raw.toString('base64') !== sealed) return null;
    const text = raw.subarray(32).toString('utf8');
    return raw.subarray(0, 32).equals(this.mac('result', url, title, text)) ? text : null;
  }

  index(url: string, citedText: string): string {
    return Buffer.concat([randomBytes(8), this.mac('index', url, citedText)]).toString('base64');
  }

  verifyIndex(url: string, citedText: string, index: string): boolean {
    const raw = Buffer.from(index, 'base64');
    return raw.length === 40 && raw.subarray(8).equals(this.mac('index', url, citedText));
  }
}

/** The web_search tool a request offers, or null; checkWebSearchTool has refused a malformed one already. */
export function offeredWebSearch(tools: unknown): { maxUses: number } | null {
  if (!Array.isArray(tools)) return null;
  const tool = (tools as unknown[]).find((t): t is Record<string, unknown> => isObject(t) && t.type === WEB_SEARCH_TYPE);
  return tool ? { maxUses: Number(tool.max_uses) } : null;
}

/** The API's 400 for a server tool definition it does not take; null when every one is valid. */
export function checkWebSearchTool(tools: unknown): string | null {
  if (!Array.isArray(tools)) return null;
  for (const [i, tool] of (tools as unknown[]).entries()) {
    if (!isObject(tool) || tool.type === undefined || tool.type === 'custom') continue;
    if (tool.type !== WEB_SEARCH_TYPE) return `tools.${i}: Input tag '${String(tool.type)}' found using 'type' does not match any of the expected tags`;
    if (tool.name !== 'web_search') return `tools.${i}.${WEB_SEARCH_TYPE}.name: Input should be 'web_search'`;
    for (const key of Object.keys(tool)) if (!TOOL_KEYS.has(key)) return `tools.${i}.${WEB_SEARCH_TYPE}.${key}: Extra inputs are not permitted`;
    if (typeof tool.max_uses !== 'number' || !Number.isInteger(tool.max_uses) || tool.max_uses < 1) return `tools.${i}.${WEB_SEARCH_TYPE}.max_uses: Input should be greater than 0`;
    if (tool.allowed_domains != null && tool.blocked_domains != null) return `tools.${i}: Cannot specify both allowed_domains and blocked_domains`;
  }
  return null;
}

/** The API's 400 for a history whose web search blocks were split, changed or answered by the client. */
export function checkWebSearchHistory(messages: unknown, sealer: SearchSealer): string | null {
  if (!Array.isArray(messages)) return null;
  const serverIds = new Set<string>();
  for (const [i, m] of (messages as Msg[]).entries()) {
    if (!isObject(m)) continue;
    const blocks = blocksOf(m);
    if (m.role === 'user') {
      for (const [j, b] of blocks.entries()) {
        if (b.type === 'tool_result' && serverIds.has(String(b.tool_use_id))) {
          return `messages.${i}.content.${j}: \`tool_result\` block(s) provided for server tool use id ${String(b.tool_use_id)}; server tool results are returned by the API and cannot be provided by the client`;
        }
      }
      continue;
    }
    const open = new Set<string>();
    for (const [j, b] of blocks.entries()) {
      const where = `messages.${i}.content.${j}`;
      if (b.type === 'server_tool_use') {
        if (typeof b.id !== 'string' || !b.id.startsWith('srvtoolu_')) return `${where}.id: String should match pattern '^srvtoolu_[a-zA-Z0-9_]+$'`;
        if (b.name !== 'web_search') return `${where}.name: Input should be 'web_search'`;
        if (!isObject(b.input)) return `${where}.input: Input should be a valid dictionary`;
        serverIds.add(b.id);
        open.add(b.id);
      } else if (b.type === 'web_search_tool_result') {
        const id = String(b.tool_use_id);
        if (!open.has(id)) return `${where}: \`web_search_tool_result\` block with id ${id} does not follow a matching \`server_tool_use\` block`;
        open.delete(id);
        const problem = checkResultContent(b.content, where, sealer);
        if (problem) return problem;
      } else if (b.type === 'text' && b.citations != null) {
        const problem = checkCitations(b.citations, where, sealer);
        if (problem) return problem;
      }
    }
    if (open.size) return `messages.${i}: \`server_tool_use\` block(s) without a corresponding \`web_search_tool_result\` block in the same message: ${[...open].join(', ')}`;
  }
  return null;
}

function checkResultContent(content: unknown, where: string, sealer: SearchSealer): string | null {
  if (isObject(content)) {
    return content.type === 'web_search_tool_result_error' && typeof content.error_code === 'string' ? null : `${where}.content: Input should be a valid list or a web_search_tool_result_error`;
  }
  if (!Array.isArray(content)) return `${where}.content: Input should be a valid list`;
  for (const [k, r] of (content as unknown[]).entries()) {
    if (!isObject(r) || r.type !== 'web_search_result') return `${where}.content.${k}.type: Input should be 'web_search_result'`;
    if (typeof r.encrypted_content !== 'string' || sealer.open(String(r.url), String(r.title), r.encrypted_content) === null) {
      return `${where}.content.${k}.encrypted_content: Invalid encrypted content for this search result`;
    }
  }
  return null;
}

function checkCitations(citations: unknown, where: string, sealer: SearchSealer): string | null {
  if (!Array.isArray(citations)) return `${where}.citations: Input should be a valid list`;
  for (const [k, c] of (citations as unknown[]).entries()) {
    if (!isObject(c) || c.type !== 'web_search_result_location') continue;
    if (typeof c.encrypted_index !== 'string' || !sealer.verifyIndex(String(c.url), String(c.cited_text), c.encrypted_index)) {
      return `${where}.citations.${k}.encrypted_index: Invalid encrypted index for this citation`;
    }
  }
  return null;
}

/**
 * After a pause_turn reply, the request a client makes when it did not send that reply back: the
 * same conversation again (as many messages as the paused request), which the API would answer as
 * if the paused work never happened. Other requests (the continuation, a summary request that
 * carries the reply and asks more) go on. `paused`: the paused request's message count.
 */
export function checkContinuation(messages: unknown, paused: number | null): string | null {
  if (paused === null || !Array.isArray(messages) || messages.length !== paused) return null;
  return `messages: the previous response stopped with \`pause_turn\`; to continue it, send it back as the final \`assistant\` message, unchanged`;
}

type SearchTurn = Extract<ScriptedTurn, { kind: 'web_search' }>;

/** The content of a web_search turn for a request allowing `maxUses` searches, and how many ran. */
export function searchContent(turn: SearchTurn, maxUses: number, sealer: SearchSealer): { content: WireContentBlock[]; searches: number } {
  const content: WireContentBlock[] = [];
  if (turn.text) content.push({ type: 'text', text: turn.text });
  const sent: WireSearchResult[][] = [];
  let searches = 0;
  for (const search of turn.searches) {
    const id = apiId('srvtoolu');
    content.push({ type: 'server_tool_use', id, name: 'web_search', input: { query: search.query } });
    if (searches >= maxUses) {
      content.push({ type: 'web_search_tool_result', tool_use_id: id, content: { type: 'web_search_tool_result_error', error_code: 'max_uses_exceeded' } });
      sent.push([]);
      continue;
    }
    if (search.error) {
      content.push({ type: 'web_search_tool_result', tool_use_id: id, content: { type: 'web_search_tool_result_error', error_code: search.error } });
      sent.push([]);
      continue;
    }
    searches++;
    const results = (search.results ?? []).map((r): WireSearchResult => ({
      type: 'web_search_result',
      title: r.title,
      url: r.url,
      page_age: r.pageAge ?? null,
      encrypted_content: sealer.seal(r.url, r.title, r.text),
    }));
    sent.push(results);
    content.push({ type: 'web_search_tool_result', tool_use_id: id, content: results });
  }
  if (!turn.pause) {
    for (const part of turn.answer ?? []) {
      const citations = (part.cite ?? []).flatMap((ref): WireCitation[] => {
        const result = sent[ref.search]?.[ref.result];
        const page = turn.searches[ref.search]?.results?.[ref.result];
        if (!result || !page) return [];
        const cited = page.text.slice(0, CITED_TEXT_MAX);
        return [{ type: 'web_search_result_location', url: result.url, title: result.title, cited_text: cited, encrypted_index: sealer.index(result.url, cited) }];
      });
      content.push(citations.length ? { type: 'text', text: part.text, citations } : { type: 'text', text: part.text });
    }
  }
  return { content, searches };
}
