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

function searchErrorWords(code: string): string {
  return ERROR_WORDS[code] ?? `The web search failed (${code}).`;
}

/**
 * A search's card as the reply streams: running once its server_tool_use block is complete, then
 * done with the pages found or failed with the error in words once its web_search_tool_result is.
 * The card keeps one item id, so the second publish replaces the first.
 */
export class SearchCards {
  private readonly open = new Map<string, ToolCallItem>();

  constructor(private readonly show: (card: ToolCallItem) => void) {}

  /** A content block of the reply is complete (the SDK's contentBlock event). */
  block(block: ContentBlock): void {
    if (block.type === 'server_tool_use' && block.name === 'web_search') {
      const query = typeof (block.input as { query?: unknown })?.query === 'string' ? (block.input as { query: string }).query : '';
      const card: ToolCallItem = { id: newItemId(), createdAt: nowIso(), kind: 'tool_call', toolUseId: block.id, name: 'web_search', summary: `Searched the web for "${query}"`, input: { query }, status: 'running' };
      this.open.set(block.id, card);
      this.show(card);
    } else if (block.type === 'web_search_tool_result') {
      const card = this.open.get(block.tool_use_id);
      if (!card) return;
      this.open.delete(block.tool_use_id);
      this.show(resultCard(card, block));
    }
  }

  /** The reply ended (done, stopped or failed): a search still open never finished. */
  finish(): void {
    for (const card of this.open.values()) this.show({ ...card, status: 'error', result: 'The search did not finish.' });
    this.open.clear();
  }
}

function resultCard(card: ToolCallItem, result: WebSearchToolResultBlock): ToolCallItem {
  if (!Array.isArray(result.content)) return { ...card, status: 'error', result: searchErrorWords(result.content.error_code) };
  const webResults = result.content.map((r) => ({ title: r.title, url: r.url, ...(r.page_age ? { pageAge: r.page_age } : {}) }));
  return { ...card, status: 'done', result: webResults.length === 1 ? '1 result' : `${webResults.length} results`, webResults };
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
