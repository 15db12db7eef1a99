import { marked, type Token } from 'marked';
import { completePartialMarkdown } from './complete-partial';

/**
 * Streaming Markdown without re-lexing the whole message on every frame. The text is cut into
 * finished chunks at safe block boundaries, each lexed once, plus the open tail that is lexed
 * again as it grows. Lexing the chunks one by one gives the same blocks as lexing the whole text
 * because a chunk ends only where no block can continue:
 *  - after a blank line, outside a fenced code block;
 *  - before a line that starts at column 0 and is not a list item (so lists, indented code and
 *    lazy continuations have ended) and not a "[label]: url" reference definition.
 * A reference definition anywhere changes links everywhere, so such a text is lexed whole.
 */
export interface Chunk {
  text: string;
  tokens: Token[];
}

export interface Lexed {
  /** Finished chunks: the same objects render after render, so React can skip them. */
  chunks: readonly Chunk[];
  tail: Token[];
  /**
   * The reference definitions when the text has any (then it is lexed whole): blocks are memoised
   * by their source, and a definition changes how an unchanged block renders.
   */
  definitions: string;
}

const lex = (text: string): Token[] => marked.lexer(text, { gfm: true });
const REFERENCE_DEF = /^ {0,3}\[[^\]]+\]:.*$/gm;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const LIST_ITEM = /^([-+*]|\d{1,9}[.)])(\s|$)/;
/** HTML blocks that, unlike the others, run on across blank lines until their end marker. */
const HTML_BLOCKS: ReadonlyArray<[RegExp, RegExp]> = [
  [/^ {0,3}<(script|pre|style|textarea)(\s|>|$)/i, /<\/(script|pre|style|textarea)>/i],
  [/^ {0,3}<!--/, /-->/],
  [/^ {0,3}<\?/, /\?>/],
  [/^ {0,3}<![A-Za-z]/, />/],
  [/^ {0,3}<!\[CDATA\[/, /\]\]>/],
];

export class IncrementalLexer {
  private chunks: Chunk[] = [];
  /** The text the chunks cover (always ends at a safe boundary). */
  private done = '';
  /** The last call and its answer: a row mounted again with the same text lexes nothing. */
  private last: { text: string; streaming: boolean; lexed: Lexed } | null = null;

  /** `streaming`: the text is still growing, so what its open tail leaves unclosed is closed for display. */
  update(text: string, streaming = false): Lexed {
    if (this.last && this.last.text === text && this.last.streaming === streaming) return this.last.lexed;
    const lexed = this.lexNew(text, streaming);
    this.last = { text, streaming, lexed };
    return lexed;
  }

  private lexNew(text: string, streaming: boolean): Lexed {
    const open = (tail: string) => lex(streaming ? completePartialMarkdown(tail) : tail);
    const definitions = text.match(REFERENCE_DEF);
    if (definitions) {
      this.reset();
      return { chunks: [], tail: open(text), definitions: definitions.join('\n') };
    }
    if (!text.startsWith(this.done)) this.reset(); // not an append (edited or replaced): start over
    const cut = safeCut(text, this.done.length);
    if (cut > this.done.length) {
      const piece = text.slice(this.done.length, cut);
      this.chunks = [...this.chunks, { text: piece, tokens: lex(piece) }];
      this.done = text.slice(0, cut);
    }
    return { chunks: this.chunks, tail: open(text.slice(this.done.length)), definitions: '' };
  }

  private reset(): void {
    this.chunks = [];
    this.done = '';
  }
}

/**
 * The last safe boundary in `text` at or after `from` (itself a safe boundary, so outside any
 * fence), or `from` when there is none. Only the text after `from` is scanned.
 */
export function safeCut(text: string, from: number): number {
  let cut = from;
  let fence: { char: string; length: number } | null = null;
  let html: RegExp | null = null; // the end marker of an open HTML block
  let blankBefore = false;
  let at = from;
  while (at < text.length) {
    const end = text.indexOf('\n', at);
    if (end < 0) break; // the last line is still being written: never cut inside or after it
    const line = text.slice(at, end);
    if (html) {
      if (html.test(line)) html = null;
      blankBefore = false;
    } else if (fence) {
      const close = FENCE.exec(line);
      if (close && close[1]![0] === fence.char && close[1]!.length >= fence.length && line.trim() === close[1]) fence = null;
      blankBefore = false;
    } else {
      if (blankBefore && at > from && startsBlock(line)) cut = at;
      const open = FENCE.exec(line);
      if (open) fence = { char: open[1]![0]!, length: open[1]!.length };
      const block = open ? undefined : HTML_BLOCKS.find(([start]) => start.test(line));
      if (block && !block[1].test(line.replace(block[0], ''))) html = block[1];
      blankBefore = line.trim() === '';
    }
    at = end + 1;
  }
  return cut;
}

/** A line after a blank line that begins a new top-level block nothing before can absorb. */
function startsBlock(line: string): boolean {
  if (line.trim() === '') return false;
  const first = line[0]!;
  if (first === ' ' || first === '\t') return false;
  return !LIST_ITEM.test(line);
}
