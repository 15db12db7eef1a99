// @vitest-environment happy-dom
import { cleanup, render } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { Markdown } from './Markdown';
import { parseHighlighted } from './highlight';

afterEach(cleanup);

describe('Markdown', () => {
  it('renders headings, lists, emphasis and inline code as elements', () => {
    const { container } = render(<Markdown text={'# Title\n\nSome **bold** and `code`.\n\n- one\n- two\n\n1. first\n2. second'} />);
    expect(container.querySelector('h3')?.textContent).toBe('Title');
    expect(container.querySelector('strong')?.textContent).toBe('bold');
    expect(container.querySelector('code.md-inline-code')?.textContent).toBe('code');
    expect([...container.querySelectorAll('ul > li')].map((li) => li.textContent)).toEqual(['one', 'two']);
    expect([...container.querySelectorAll('ol > li')].map((li) => li.textContent)).toEqual(['first', 'second']);
  });

  it('highlights code blocks in a known language and keeps the code text exact', () => {
    const code = 'const x: number = 1 < 2 ? 3 : 4; // "hi" & bye';
    const { container } = render(<Markdown text={'```ts\n' + code + '\n```'} />);
    const el = container.querySelector('pre code');
    expect(el?.className).toContain('language-ts');
    expect(el?.querySelector('.hljs-keyword')?.textContent).toBe('const');
    expect(el?.querySelector('.hljs-comment')?.textContent).toBe('// "hi" & bye');
    expect(el?.textContent).toBe(code);
  });

  it('shows an unknown language as plain text', () => {
    const { container } = render(<Markdown text={'```cobol\nDISPLAY "HI".\n```'} />);
    expect(container.querySelector('pre code')?.textContent).toBe('DISPLAY "HI".');
    expect(container.querySelector('pre code span')).toBeNull();
  });

  it('keeps links safe: http(s) open in a new tab, javascript: is not a link', () => {
    const { container } = render(<Markdown text={'[ok](https://example.com/a) and [bad](javascript:alert(1))'} />);
    const links = [...container.querySelectorAll('a')];
    expect(links).toHaveLength(1);
    expect(links[0]?.getAttribute('href')).toBe('https://example.com/a');
    expect(links[0]?.getAttribute('rel')).toBe('noopener noreferrer');
    expect(links[0]?.getAttribute('target')).toBe('_blank');
    expect(container.textContent).toContain('bad');
  });

  it('shows raw HTML in model text as text instead of injecting it', () => {
    const { container } = render(
      <Markdown text={'<script>window.pwned = 1</script>\n\nInline <img src=x onerror="alert(1)"> here <b>bold?</b>'} />,
    );
    expect(container.querySelector('script')).toBeNull();
    expect(container.querySelector('img')).toBeNull();
    expect(container.querySelector('b')).toBeNull();
    expect(container.textContent).toContain('<script>window.pwned = 1</script>');
    expect(container.textContent).toContain('<img src=x onerror="alert(1)">');
  });

  it('re-renders only the last block while a message streams', () => {
    const first = 'Para one.\n\n';
    const { container, rerender } = render(<Markdown text={first + 'Para tw'} />);
    const firstPara = container.querySelector('p');
    rerender(<Markdown text={first + 'Para two, longer'} />);
    expect(container.querySelector('p')).toBe(firstPara);
    expect(container.querySelectorAll('p')[1]?.textContent).toBe('Para two, longer');
  });
});

describe('parseHighlighted', () => {
  it('turns hljs span markup into a tree and decodes entities', () => {
    const tree = parseHighlighted('<span class="hljs-string">&quot;a&lt;b&quot;</span> &amp; c');
    expect(tree.children).toEqual([{ className: 'hljs-string', children: ['"a<b"'] }, ' & c']);
  });
});
