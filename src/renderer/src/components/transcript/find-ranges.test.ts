// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { matchRanges } from './find-ranges';

function row(html: string): HTMLElement {
  const el = document.createElement('div');
  el.innerHTML = html;
  document.body.append(el);
  return el;
}

describe('matchRanges', () => {
  it('marks each match case-insensitively, across formatting, in order', () => {
    const el = row('<p data-find>Hello <b>Wor</b>ld, hello world</p>');
    expect(matchRanges(el, 'WORLD').map((r) => r.toString())).toEqual(['World', 'world']);
    expect(matchRanges(el, 'hello').map((r) => [r.startContainer.textContent, r.startOffset])).toEqual([
      ['Hello ', 0],
      ['ld, hello world', 4],
    ]);
  });

  it('skips text the reader does not see, so it counts as main does', () => {
    const el = row('<div data-find><span class="sr-only">apple</span><p>apple</p><div hidden>apple</div><span aria-hidden="true">apple</span></div>');
    const ranges = matchRanges(el, 'apple');
    expect(ranges).toHaveLength(1);
    expect(ranges[0]!.startContainer.parentElement?.tagName).toBe('P');
  });

  it('is plain text and finds nothing for an empty query', () => {
    const el = row('<p data-find>a.b axb (c)</p>');
    expect(matchRanges(el, 'a.b').map((r) => r.toString())).toEqual(['a.b']);
    expect(matchRanges(el, '(c)')).toHaveLength(1);
    expect(matchRanges(el, '')).toEqual([]);
  });

  it('marks only the text main counts (the parts marked data-find), never the row\'s chrome, so the count and the marks agree', () => {
    // A tool card: its header names the tool and its input, its buttons say what they do; main
    // counts the summary and the result only.
    const el = row(
      '<article><header>read_file marmalade.md</header><p data-find>Read marmalade.md</p>' +
        '<button>Copy marmalade</button><pre data-find>Marmalade: oranges. <button>marmalade</button></pre><span>3 marmalade lines</span></article>',
    );
    expect(matchRanges(el, 'marmalade').map((r) => r.toString())).toEqual(['marmalade', 'Marmalade']);
  });

  it('never lets a match run from one part into the next, as main keeps parts apart', () => {
    const el = row('<p data-find>ends with marma</p><p data-find>lade starts here</p>');
    expect(matchRanges(el, 'marmalade')).toEqual([]);
  });
});
