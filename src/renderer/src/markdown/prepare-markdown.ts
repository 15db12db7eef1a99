import type { Token, Tokens } from 'marked';
import { prepareHighlight } from './highlight';
import { lexCached } from './lexed-cache';

/**
 * Does now what mounting this finished text would do first: lexes it into the lexed cache (under
 * the same key its Markdown is rendered with) and highlights its code blocks into the highlight
 * cache. Called while the page is idle for rows about to scroll into view, so their mount only
 * builds elements.
 */
export function prepareMarkdown(cacheKey: string, text: string): void {
  const { chunks, tail } = lexCached(cacheKey, text, false);
  for (const chunk of chunks) prepareTokens(chunk.tokens);
  prepareTokens(tail);
}

function prepareTokens(tokens: readonly Token[]): void {
  for (const token of tokens) {
    if (token.type === 'code') prepareHighlight((token as Tokens.Code).text, (token as Tokens.Code).lang);
    else if (token.type === 'list') for (const item of (token as Tokens.List).items) prepareTokens(item.tokens);
    else if (token.type === 'blockquote') prepareTokens((token as Tokens.Blockquote).tokens);
  }
}
