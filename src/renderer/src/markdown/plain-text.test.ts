import { describe, expect, it } from 'vitest';
import { markdownToPlainText } from './plain-text';

describe('markdownToPlainText', () => {
  it('keeps the words and drops the marks, blocks a blank line apart', () => {
    const md = '## Shop & go\n\nBuy **fresh** *soft* ~~old~~ `a<b>` [the shop](https://e.com), 1 < 2 \\*.\n\n> Quoted _line_';
    expect(markdownToPlainText(md)).toBe('Shop & go\n\nBuy fresh soft old a<b> the shop, 1 < 2 *.\n\nQuoted line');
  });

  it('puts list items and table rows one a line, code as written, images as their alt text', () => {
    const md = ['- Milk', '- **Eggs**', '', '1. one', '2. two', '', '| a | b |', '|---|---|', '| 1 | 2 |', '', '```js', 'const x = "<y>";', '```', '', '![a cat](cat.png)'].join('\n');
    expect(markdownToPlainText(md)).toBe('Milk\nEggs\n\none\ntwo\n\na\tb\n1\t2\n\nconst x = "<y>";\n\na cat');
  });

  it('shows raw HTML as the text it is, as the transcript does', () => {
    expect(markdownToPlainText('Say <b>hi</b>\n\n<div>block</div>')).toBe('Say <b>hi</b>\n\n<div>block</div>');
  });

  it('reads task lists and line breaks as text', () => {
    expect(markdownToPlainText('- [x] done\n- [ ] todo\n\nline one  \nline two')).toBe('done\ntodo\n\nline one\nline two');
  });
});
