import { Fragment, memo, useMemo, useRef } from 'react';
import { marked, type Token } from 'marked';
import { BlockTokens } from './BlockToken';
import { IncrementalLexer, type Chunk } from './incremental-lexer';
import { lexCached } from './lexed-cache';
import './markdown.css';

/**
 * Assistant text as Markdown. marked only tokenises (no HTML output); React builds the elements,
 * so nothing in the model's text can become markup or script.
 *
 * While a reply streams, the text grows by a few characters a frame: finished blocks are lexed
 * once and skipped by React (incremental-lexer.ts); only the open tail is lexed and rendered
 * again. Lexing the whole 80 KB reply every frame was the long task of the streaming benchmark.
 * `cacheKey` (a transcript item's id) keeps the lexed text when the row unmounts (lexed-cache.ts).
 * `findPart`: the text is a part that find in chat counts (components/transcript/find-ranges.ts).
 */
export function Markdown({ text, streaming = false, cacheKey, findPart = false }: { text: string; streaming?: boolean; cacheKey?: string; findPart?: boolean }) {
  const lexer = useRef<IncrementalLexer | null>(null);
  const { chunks, tail, definitions } = useMemo(() => {
    if (cacheKey !== undefined) return lexCached(cacheKey, text, streaming);
    lexer.current ??= new IncrementalLexer();
    return lexer.current.update(text, streaming);
  }, [cacheKey, text, streaming]);
  return (
    <div className="markdown" data-find={findPart ? '' : undefined}>
      {chunks.map((chunk, index) => (
        <FinishedChunk key={index} chunk={chunk} />
      ))}
      <Fragment key={definitions}>
        <BlockTokens tokens={tail} />
      </Fragment>
    </div>
  );
}

/** A finished chunk never changes (same object), so it renders once. */
const FinishedChunk = memo(function FinishedChunk({ chunk }: { chunk: Chunk }) {
  return <BlockTokens tokens={chunk.tokens} />;
});

/** The whole text lexed on every render: the baseline the streaming benchmark compares with. */
export function FullMarkdown({ text }: { text: string }) {
  const tokens: Token[] = useMemo(() => marked.lexer(text, { gfm: true }), [text]);
  return (
    <div className="markdown">
      <BlockTokens tokens={tokens} />
    </div>
  );
}
