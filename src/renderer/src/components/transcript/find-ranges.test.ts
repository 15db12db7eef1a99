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
    const el = row('<p>Hello <b>Wor</b>ld, hello world</p>');
    expect(matchRanges(el, 'WORLD').map((r) => r.toString())).toEqual(['World', 'world']);
    expect(matchRanges(el, 'hello').map((r) => [r.startContainer.textContent, r.startOffset])).toEqual([
      ['Hello ', 0],
      ['ld, hello world', 4],
    ]);
  });

  it('skips text the reader does not see, so it counts as main does', () => {
    const el = row('<span class="sr-only">apple</span><p>apple</p><div hidden>apple</div><span aria-hidden="true">apple</span>');
    const ranges = matchRanges(el, 'apple');
    expect(ranges).toHaveLength(1);
    expect(ranges[0]!.startContainer.parentElement?.tagName).toBe('P');
  });

  it('is plain text and finds nothing for an empty query', () => {
    const el = row('<p>a.b axb (c)</p>');
    expect(matchRanges(el, 'a.b').map((r) => r.toString())).toEqual(['a.b']);
    expect(matchRanges(el, '(c)')).toHaveLength(1);
    expect(matchRanges(el, '')).toEqual([]);
  });
});
