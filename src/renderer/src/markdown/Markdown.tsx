import { type ReactElement, useMemo, useRef } from 'react';
import { marked, type Token } from 'marked';
import { BlockTokens, MemoBlock } from './BlockToken';
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
 *
 * Every block is one keyed child of the same element, keyed by where it starts in the text, so a
 * block that the stream finishes (moved from the open tail into a finished chunk) keeps its DOM
 * element: it was unmounted and built again before, a code block with its highlighting and
 * buttons, each time the stream passed a block boundary (issue 24, docs/architecture.md).
 */
export function Markdown({ text, streaming = false, cacheKey, findPart = false }: { text: string; streaming?: boolean; cacheKey?: string; findPart?: boolean }) {
  const lexer = useRef<IncrementalLexer | null>(null);
  const { chunks, tail, definitions } = useMemo(() => {
    if (cacheKey !== undefined) return lexCached(cacheKey, text, streaming);
    lexer.current ??= new IncrementalLexer();
    return lexer.current.update(text, streaming);
  }, [cacheKey, text, streaming]);
  const finished = useMemo(() => finishedElements(chunks), [chunks]);
  const blocks = finished.elements.slice();
  // A text with reference definitions is all tail; a changed definition renders every block anew.
  keyedBlocks(tail, finished.end, definitions ? `${definitions.length}:${hash(definitions)}@` : '', blocks);
  return (
    <div className="markdown" data-find={findPart ? '' : undefined}>
      {blocks}
    </div>
  );
}

/** The finished chunks' elements: the same objects render after render, so React skips them at once. */
interface Finished {
  elements: ReactElement[];
  /** Where the text after the chunks starts. */
  end: number;
}

/** A chunk's elements by the chunk (never changes) and where it starts (the same while the lexer appends). */
const chunkElements = new WeakMap<Chunk, { start: number; elements: ReactElement[] }>();

function finishedElements(chunks: readonly Chunk[]): Finished {
  const elements: ReactElement[] = [];
  let start = 0;
  for (const chunk of chunks) {
    let held = chunkElements.get(chunk);
    if (held?.start !== start) {
      held = { start, elements: keyedBlocks(chunk.tokens, start, '', []) };
      chunkElements.set(chunk, held);
    }
    elements.push(...held.elements);
    start += chunk.text.length;
  }
  return { elements, end: start };
}

/** Appends a MemoBlock per token, keyed by the offset where the token starts (its raw text follows the one before). */
function keyedBlocks(tokens: readonly Token[], start: number, prefix: string, into: ReactElement[]): ReactElement[] {
  let at = start;
  let last = -1;
  for (const token of tokens) {
    // A token with no text of its own would share the next one's offset: never give two the same key.
    const key = at === last ? `${prefix}${at}+${into.length}` : `${prefix}${at}`;
    into.push(<MemoBlock key={key} token={token} />);
    last = at;
    at += token.raw.length;
  }
  return into;
}

/** A short fingerprint of the definitions for a key (they can be long). */
function hash(text: string): number {
  let h = 0;
  for (let i = 0; i < text.length; i++) h = (Math.imul(h, 31) + text.charCodeAt(i)) | 0;
  return h;
}

/** The whole text lexed on every render: the baseline the streaming benchmark compares with. */
export function FullMarkdown({ text }: { text: string }) {
  const tokens: Token[] = useMemo(() => marked.lexer(text, { gfm: true }), [text]);
  return (
    <div className="markdown">
      <BlockTokens tokens={tokens} />
    </div>
  );
}
