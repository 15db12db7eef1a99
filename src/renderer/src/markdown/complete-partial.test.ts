import fc from 'fast-check';
import { marked } from 'marked';
import { describe, expect, it } from 'vitest';
import { completePartialMarkdown as complete } from './complete-partial';

const html = (text: string) => marked.parse(text, { async: false, gfm: true }).trim();

describe('completePartialMarkdown', () => {
  it('closes emphasis, strikethrough and code that the stream has not closed yet', () => {
    expect(complete('Here is **Se')).toBe('Here is **Se**');
    expect(html(complete('Here is **Se'))).toBe('<p>Here is <strong>Se</strong></p>');
    expect(complete('an *important')).toBe('an *important*');
    expect(complete('a ~~wrong')).toBe('a ~~wrong~~');
    expect(complete('run `npm te')).toBe('run `npm te`');
    expect(complete('**bold and *both')).toBe('**bold and *both***');
    expect(html(complete('**bold and *both'))).toBe('<p><strong>bold and <em>both</em></strong></p>');
    expect(complete('**Run `npm te')).toBe('**Run `npm te`**');
    expect(complete('**Se ')).toBe('**Se**');
  });

  it('drops a marker that has nothing after it yet instead of showing it', () => {
    expect(complete('Hello **')).toBe('Hello ');
    expect(complete('Hello *')).toBe('Hello ');
    expect(complete('2 * 3')).toBe('2 * 3');
    expect(complete('x **_')).toBe('x ');
    expect(complete('run `')).toBe('run ');
  });

  it('turns a link whose URL is still arriving into a link', () => {
    expect(html(complete('See [the docs](https://exa'))).toBe('<p>See <a href="https://exa">the docs</a></p>');
  });

  it('leaves finished text, list bullets, snake_case, escapes and code blocks alone', () => {
    for (const text of [
      'Plain text.',
      '**done** and *done*',
      '* a list item',
      '- another',
      'snake_case_name and 2 * 3',
      'an escaped \\*star',
      '```js\nconst a = **b',
      'a `code ** span`',
      '',
    ]) {
      expect(complete(text), text).toBe(text);
    }
  });

  it('only looks at the last paragraph: earlier ones are finished as they are', () => {
    expect(complete('A literal ** in the past.\n\nNow **bo')).toBe('A literal ** in the past.\n\nNow **bo**');
  });

  it('only ever appends to the text or removes a trailing marker: the words stay as typed', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[a-z *_`~\n[\]()]{0,40}$/), (text) => {
        const out = complete(text);
        let common = 0;
        while (common < out.length && out[common] === text[common]) common++;
        // After what they share, the output only adds closers, and the text only had markers or spaces.
        expect(out.slice(common)).toMatch(/^[*_~`)]*$/);
        expect(text.slice(common)).toMatch(/^[\s*_~`]*$/);
      }),
      { numRuns: 300 },
    );
  });
});
