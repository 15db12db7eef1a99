import { SizedLru } from '../lib/sized-lru';
import { IncrementalLexer, type Lexed } from './incremental-lexer';

/**
 * Each transcript item's Markdown lexer, by item id, outliving the row: the virtualised
 * transcript unmounts a row once it leaves the view, and a row scrolled back in would otherwise
 * lex its whole text again (a reply streaming at the time would start over too). The lexer is
 * handed the current text every time and answers for that text only, so an edited, retried or
 * streamed item never shows what it held before.
 *
 * Bounded by size: the tokens marked builds measured ≈ 4.3 bytes per character of a working
 * chat's replies (Node, no pointer compression; headings, a table, a list, a code block), plus
 * the text itself, which an item removed from the store leaves held here. 24 MB holds ≈ 4 M
 * characters, the replies of a 300-turn working chat (≈ 1.3 M) three times over.
 */
export const LEXED_CACHE_BYTES = 24 * 1024 * 1024;
const BYTES_PER_CHAR = 6;
const cache = new SizedLru<string, IncrementalLexer>(LEXED_CACHE_BYTES);

export function lexCached(key: string, text: string, streaming: boolean): Lexed {
  const lexer = cache.get(key) ?? new IncrementalLexer();
  const lexed = lexer.update(text, streaming);
  cache.set(key, lexer, text.length * BYTES_PER_CHAR);
  return lexed;
}
