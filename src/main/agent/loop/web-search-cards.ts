import type { ContentBlock, WebSearchToolResultBlock } from '@anthropic-ai/sdk/resources/messages';
import type { ToolCallItem, WebSource } from '../../../shared/transcript';
import { newItemId, nowIso } from '../../common/transcript-items';

/**
 * What a reply's server-side web searches show in the transcript: a "web_search" card per search
 * (its query, then the pages found or the error in words) and the pages the reply's text cites.
 * The API ran the searches; these only show them (docs/architecture.md "Web search").
 */

const ERROR_WORDS: Record<string, string> = {
  max_uses_exceeded: 'Not searched: Claude reached the "Web searches per request" limit for this request.',
  too_many_requests: 'The web search service had too many requests at once (rate limited), so this search was not run.',
  unavailable: 'The web search service was unavailable, so this search was not run.',
  invalid_tool_input: 'The search query was not valid, so this search was not run.',
  invalid_input: 'The search query was not valid, so this search was not run.',
  query_too_long: 'The search query was too long, so this search was not run.',
  request_too_large: 'The search request was too large, so this search was not run.',
};

export function searchErrorWords(code: string): string {
  return ERROR_WORDS[code] ?? `The web search failed (${code}).`;
}

/** The cards of a reply's searches, in its order; a search without its result (a cut stream) shows as not finished. */
export function searchCards(content: readonly ContentBlock[]): ToolCallItem[] {
  const results = new Map(content.filter((b): b is WebSearchToolResultBlock => b.type === 'web_search_tool_result').map((b) => [b.tool_use_id, b]));
  return content.flatMap((block): ToolCallItem[] => {
    if (block.type !== 'server_tool_use' || block.name !== 'web_search') return [];
    const query = typeof (block.input as { query?: unknown })?.query === 'string' ? (block.input as { query: string }).query : '';
    const card = { id: newItemId(), createdAt: nowIso(), kind: 'tool_call' as const, toolUseId: block.id, name: 'web_search', summary: `Searched the web for "${query}"`, input: { query } };
    const result = results.get(block.id);
    if (!result) return [{ ...card, status: 'error', result: 'The search did not finish.' }];
    if (!Array.isArray(result.content)) return [{ ...card, status: 'error', result: searchErrorWords(result.content.error_code) }];
    const webResults = result.content.map((r) => ({ title: r.title, url: r.url, ...(r.page_age ? { pageAge: r.page_age } : {}) }));
    const found = webResults.length === 1 ? '1 result' : `${webResults.length} results`;
    return [{ ...card, status: 'done', result: found, webResults }];
  });
}

/** The pages the reply's text cites, each once (by URL), in the order first cited. */
export function citedSources(content: readonly ContentBlock[]): WebSource[] {
  const seen = new Map<string, WebSource>();
  for (const block of content) {
    if (block.type !== 'text') continue;
    for (const citation of block.citations ?? []) {
      if (citation.type !== 'web_search_result_location' || seen.has(citation.url)) continue;
      seen.set(citation.url, { title: citation.title || citation.url, url: citation.url });
    }
  }
  return [...seen.values()];
}
