// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { storeWrapper } from '../../test-support/store-wrapper';
import { UserMessage } from './UserMessage';

afterEach(cleanup);

const item = (text: string) => ({ id: 'u1', kind: 'user' as const, text, createdAt: '2025-01-01T00:00:00.000Z' });

describe('UserMessage', () => {
  it('shows a short message whole, with no button', () => {
    render(<UserMessage item={item('Fix the parser, please.')} />, storeWrapper());
    expect(screen.getByRole('article', { name: 'You' }).textContent).toBe('Fix the parser, please.');
    expect(screen.queryByRole('button')).toBeNull();
  });

  it('collapses a 200 KB paste to its start, and "Show all" / "Show less" toggle it (aria-expanded)', () => {
    const paste = `${'x'.repeat(100)} START\n${'log line\n'.repeat(22_000)}THE END`;
    render(<UserMessage item={item(paste)} />, storeWrapper());
    const article = screen.getByRole('article', { name: 'You' });
    expect(article.textContent!.length).toBeLessThan(1000);
    expect(article.textContent).toContain('START');
    expect(article.textContent).not.toContain('THE END');
    expect(article.textContent).toContain('Showing 12 of 22,002 lines');
    const button = screen.getByRole('button', { name: 'Show all' });
    expect(button.getAttribute('aria-expanded')).toBe('false');
    expect(document.getElementById(button.getAttribute('aria-controls')!)?.classList.contains('msg-bubble')).toBe(true);

    fireEvent.click(button);
    expect(screen.getByRole('button', { name: 'Show less' }).getAttribute('aria-expanded')).toBe('true');
    expect(article.textContent).toContain('THE END');

    fireEvent.click(screen.getByRole('button', { name: 'Show less' }));
    expect(screen.getByRole('button', { name: 'Show all' }).getAttribute('aria-expanded')).toBe('false');
    expect(article.textContent).not.toContain('THE END');
  });
});
