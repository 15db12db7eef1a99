// @vitest-environment happy-dom
import fc from 'fast-check';
import { cleanup, render } from '@testing-library/react';
import hljs from 'highlight.js/lib/core';
import { marked } from 'marked';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { highlightCode } from './highlight';
import { IncrementalLexer, safeCut } from './incremental-lexer';
import { FullMarkdown, Markdown } from './Markdown';

afterEach(cleanup);

/** Blocks that are hard to cut: loose lists, indented code, fences with blank lines, HTML, tables. */
const BLOCKS = [
  '# Heading one',
  'A paragraph with **bold**, `code` and a [link](https://example.com).',
  'Setext title\n===',
  '- tight\n- list',
  '- loose\n\n- list\n\n  continued in item',
  '1. one\n2. two\n\n3. three after a gap',
  '    indented code\n\n    still code after a blank line',
  '```ts\nconst a = 1;\n\nconst b = 2; // blank line inside the fence\n```',
  '~~~\nplain\n\n```\nnot a close\n~~~',
  '> quoted\n> more\n\n> another quote',
  '| a | b |\n| - | - |\n| 1 | 2 |',
  '<!-- a comment\n\nthat spans a blank line -->',
  '<pre>\nraw\n\nstill raw\n</pre>',
  'Lazy paragraph\ncontinues here',
  '---',
  '  two-space indented paragraph',
];

/** What lexing the whole text renders, freshly, serialised by the same DOM. */
function fullHtml(text: string): string {
  const { container, unmount } = render(<FullMarkdown text={text} />);
  const out = container.innerHTML;
  unmount();
  return out;
}

/** Streams `text` into one Markdown instance in steps of `step` chars, checking every frame. */
function streamAndCompare(text: string, step: number): void {
  const { container, rerender } = render(<Markdown text="" />);
  for (let end = step; ; end = Math.min(text.length, end + step)) {
    const shown = text.slice(0, end);
    rerender(<Markdown text={shown} />);
    expect(container.innerHTML).toBe(fullHtml(shown));
    if (end === text.length) break;
  }
  cleanup();
}

describe('incremental Markdown lexing', () => {
  // Every run re-renders a whole stream in happy-dom: slow on a loaded 2-core machine, hence the time.
  it('renders exactly what lexing the whole text renders, at every point of a stream', { timeout: 120_000 }, () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...BLOCKS), { minLength: 1, maxLength: 8 }), fc.constantFrom('\n\n', '\n', '\n\n\n'), fc.integer({ min: 3, max: 40 }), (blocks, gap, step) => {
        streamAndCompare(`${blocks.join(gap)}\n\nThe end.`, step);
      }),
      { numRuns: 30 },
    );
  });

  it('lexes finished chunks once: the chunk objects stay the same as the text grows', () => {
    const lexer = new IncrementalLexer();
    const first = lexer.update('# One\n\nPara one.\n\nPara t');
    expect(first.chunks.map((c) => c.text)).toEqual(['# One\n\n']); // the line being written is never a boundary
    const second = lexer.update('# One\n\nPara one.\n\nPara two.\n\n- a');
    expect(second.chunks[0]).toBe(first.chunks[0]);
    expect(second.chunks.map((c) => c.text)).toEqual(['# One\n\n', 'Para one.\n\n']);
    expect(second.tail.map((t) => t.type).filter((t) => t !== 'space')).toEqual(['paragraph', 'list']);
  });

  it('never cuts inside a fence, before a list item or indented line, or in the line being written', () => {
    expect(safeCut('```\na\n\nb\n', 0)).toBe(0);
    expect(safeCut('- a\n\n- b\n', 0)).toBe(0);
    expect(safeCut('para\n\n    code\n', 0)).toBe(0);
    expect(safeCut('para\n\nnext', 0)).toBe(0);
    expect(safeCut('para\n\nnext\n', 0)).toBe(6);
  });

  it('lexes a text with a reference definition whole (a later definition changes earlier links)', () => {
    const text = 'See [the docs][d].\n\nMore text.\n\n[d]: https://example.com\n';
    const lexed = new IncrementalLexer().update(text);
    expect(lexed.chunks).toHaveLength(0);
    streamAndCompare(text, 5);
  });
});

describe('highlight cache', () => {
  it('highlights the same language and code once, new code anew, and gives equal trees', () => {
    const highlight = vi.spyOn(hljs, 'highlight');
    try {
      const a = highlightCode('const cached = 1;', 'ts');
      expect(highlight).toHaveBeenCalledTimes(1);
      expect(highlightCode('const cached = 1;', 'ts')).toEqual(a);
      expect(highlight).toHaveBeenCalledTimes(1);
      expect(highlightCode('const cached = 1;', 'typescript ')).toEqual(a); // another name of the language
      expect(highlightCode('const cached = 2;', 'ts')).not.toEqual(a);
      expect(highlight).toHaveBeenCalledTimes(3);
      expect(highlightCode('x', 'cobol')).toBeNull();
    } finally {
      highlight.mockRestore();
    }
  });
});

describe('lexed cache', () => {
  it('keeps an item\'s lexed text across unmount and mount, and never shows an older text', () => {
    const lex = vi.spyOn(marked, 'lexer');
    try {
      const text = 'Para one.\n\nPara two with **bold**.\n';
      const first = render(<Markdown text={text} cacheKey="item-1" />);
      const html = first.container.innerHTML;
      const lexed = lex.mock.calls.length;
      expect(lexed).toBeGreaterThan(0);
      first.unmount();
      const again = render(<Markdown text={text} cacheKey="item-1" />);
      expect(again.container.innerHTML).toBe(html);
      expect(lex).toHaveBeenCalledTimes(lexed); // mounted again: nothing lexed
      again.unmount();
      // The same item edited: its new text shows, not the cached one.
      const edited = render(<Markdown text={'Para one, edited.\n\nPara two with **bold**.\n'} cacheKey="item-1" />);
      expect(edited.container.textContent).toBe('Para one, edited.Para two with bold.');
      edited.unmount();
      // A streamed item mounted again mid-stream and grown: the new text, lexed from where it stood.
      render(<Markdown text={'Streamed **bo'} streaming cacheKey="item-2" />).unmount();
      const grown = render(<Markdown text={'Streamed **bold** and more'} streaming cacheKey="item-2" />);
      expect(grown.container.textContent).toBe('Streamed bold and more');
    } finally {
      lex.mockRestore();
    }
  });
});

describe('a streaming reply\'s finished blocks', () => {
  // Issue 24: a block moving from the open tail into a finished chunk was unmounted and built
  // again (a code block with its highlighting and buttons), each time the stream passed a block
  // boundary; the many-chats trace showed its nodes removed and added to layout every few frames.
  it('keep their DOM elements when the stream moves them from the open tail into a finished chunk', () => {
    const para = 'The loader reads **settings.json** first.';
    const code = '```ts\nconst a = 1;\n```';
    const { container, rerender } = render(<Markdown text={`${para}\n\n${code}`} streaming />);
    const p = container.querySelector('.markdown > p');
    const block = container.querySelector('.md-code');
    expect(p?.textContent).toBe('The loader reads settings.json first.');
    expect(block).not.toBeNull();
    // The next line starts a block: the paragraph and then the code block become finished chunks.
    rerender(<Markdown text={`${para}\n\n${code}\n\n## Next`} streaming />);
    expect(new IncrementalLexer().update(`${para}\n\n${code}\n\n## Next`, true).chunks.length).toBeGreaterThan(0);
    rerender(<Markdown text={`${para}\n\n${code}\n\n## Next part\n\nMore`} streaming />);
    expect(container.querySelector('.markdown > p')).toBe(p);
    expect(container.querySelector('.md-code')).toBe(block);
    expect(container.querySelector('h4')?.textContent).toBe('Next part');
    // The tail's own block, written on, is updated in place too.
    const more = [...container.querySelectorAll('.markdown > p')].at(-1);
    rerender(<Markdown text={`${para}\n\n${code}\n\n## Next part\n\nMore text`} streaming />);
    expect([...container.querySelectorAll('.markdown > p')].at(-1)).toBe(more);
    expect(more?.textContent).toBe('More text');
  });

  it('render the same as the whole text when a stream edits its open block', () => {
    // Not an append (a retried reply's text replaced): everything is lexed again and shown as it is now.
    const { container, rerender } = render(<Markdown text={'# One\n\nPara one.\n\nPara t'} streaming />);
    rerender(<Markdown text={'# Uno\n\nPara uno.\n\n- item'} streaming />);
    expect(container.innerHTML).toBe(fullHtml('# Uno\n\nPara uno.\n\n- item'));
  });
});
