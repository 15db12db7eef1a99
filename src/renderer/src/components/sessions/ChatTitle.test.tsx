// @vitest-environment happy-dom
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ChatTitle } from './ChatTitle';

describe('ChatTitle', () => {
  it('keeps "(earlier version)" apart from a title that may be cut short, and is named by the whole title', () => {
    const title = `${'A long first message '.repeat(5).trim()} (earlier version)`;
    render(
      <button type="button">
        <ChatTitle title={title} />
      </button>,
    );
    const button = screen.getByRole('button', { name: title });
    expect(button.querySelector('.chat-title')!.textContent).toBe('A long first message '.repeat(5).trim());
    expect(button.querySelector('.chat-earlier')!.textContent).toBe('(earlier version)');
  });

  it('shows any other title as it is', () => {
    render(
      <button type="button">
        <ChatTitle title="Plan the release" />
      </button>,
    );
    expect(screen.getByRole('button', { name: 'Plan the release' }).querySelector('.chat-earlier')).toBeNull();
  });
});
