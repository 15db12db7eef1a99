// @vitest-environment happy-dom
import { cleanup, render } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { AssistantMessage } from '../components/transcript/AssistantMessage';

afterEach(cleanup);

const reply = (text: string, status: 'streaming' | 'done') => ({ id: 'm1', kind: 'assistant' as const, text, status, createdAt: '2025-01-01T00:00:00.000Z' });

describe('a streaming reply', () => {
  it('never shows the markers of formatting that is not closed yet', () => {
    const text = 'Here is **Sensible advice** for you: run `npm test` and read [the guide](https://example.com/guide).';
    const { container, rerender } = render(<AssistantMessage item={reply('', 'streaming')} />);
    for (let end = 1; end <= text.length; end++) {
      rerender(<AssistantMessage item={reply(text.slice(0, end), 'streaming')} />);
      const shown = container.textContent ?? '';
      expect(shown, `after ${end} characters`).not.toMatch(/\*|`|\]\(/);
    }
    rerender(<AssistantMessage item={reply(text, 'done')} />);
    expect(container.querySelector('strong')?.textContent).toBe('Sensible advice');
    expect(container.querySelector('code')?.textContent).toBe('npm test');
    expect(container.querySelector('a')?.getAttribute('href')).toBe('https://example.com/guide');
  });

  it('shows a finished reply exactly as written, unclosed markers included', () => {
    const { container } = render(<AssistantMessage item={reply('2 * 3 and **not closed', 'done')} />);
    // The reply's text (its Copy buttons follow it).
    expect(container.querySelector('.markdown')!.textContent).toBe('2 * 3 and **not closed');
  });

  it('has no caret element of its own line: the caret is drawn at the end of the last line', () => {
    const { container } = render(<AssistantMessage item={reply('One line', 'streaming')} />);
    const article = container.querySelector('article')!;
    expect(article.getAttribute('aria-busy')).toBe('true');
    expect(article.lastElementChild?.className).toBe('markdown');
    expect(article.querySelector('.markdown')?.lastElementChild?.tagName).toBe('P');
  });
});
