import fc from 'fast-check';
import hljs from 'highlight.js/lib/core';
import { describe, expect, it } from 'vitest';
import { colourRuns } from './code-colours';
import { highlightCode, parseHighlighted } from './highlight';

const text = (code: string, runs: ReturnType<typeof colourRuns>) => runs.map((r) => [code.slice(r.start, r.end), r.colour]);

describe('colourRuns', () => {
  it('gives each token the colour its scope had as a span, by offset into the code', () => {
    const code = 'const a = "b"; // c\nfunction d(e: number) { return 1; }';
    const runs = colourRuns(highlightCode(code, 'ts')!);
    expect(text(code, runs)).toEqual([
      ['const', 'keyword'],
      ['"b"', 'string'],
      ['// c', 'comment'],
      ['function', 'keyword'],
      ['d', 'title'],
      ['e', 'number'], // hljs-attr, as the theme colours it
      ['number', 'builtin'],
      ['return', 'keyword'],
      ['1', 'number'],
    ]);
  });

  it('colours text inside an uncoloured scope as its nearest coloured ancestor, and merges touching runs of one colour', () => {
    const tree = parseHighlighted('<span class="hljs-comment">// a <span class="hljs-doctag">TODO:</span><span class="hljs-meta"> b</span></span> c<span class="hljs-string">"d"</span><span class="hljs-string">"e"</span>');
    const code = '// a TODO: b c"d""e"';
    expect(text(code, colourRuns(tree))).toEqual([
      ['// a ', 'comment'],
      ['TODO:', 'keyword'],
      [' b', 'comment'],
      ['"d""e"', 'string'],
    ]);
  });

  it('covers only the code, in order, without overlaps, for any text in any language', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), fc.constantFrom(...hljs.listLanguages()), (code, language) => {
        const runs = colourRuns(highlightCode(code, language)!);
        let at = 0;
        for (const run of runs) {
          expect(run.start).toBeGreaterThanOrEqual(at);
          expect(run.end).toBeGreaterThan(run.start);
          at = run.end;
        }
        expect(at).toBeLessThanOrEqual(code.length);
      }),
      { numRuns: 200 },
    );
  });
});
