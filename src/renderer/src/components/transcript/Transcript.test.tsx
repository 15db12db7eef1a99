// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { TranscriptItem } from '../../../../shared/transcript';
import { Transcript } from './Transcript';

afterEach(cleanup);

const T = '2025-01-01T00:00:00.000Z';
const change = (n: number, text: string): TranscriptItem => ({ id: `c${n}`, kind: 'plan_change', text, version: n, createdAt: T });

describe('Transcript', () => {
  it('shows a run of plan changes as one line that expands (aria-expanded) to every change', () => {
    const items: TranscriptItem[] = [
      { id: 'u', kind: 'user', text: 'Plan it', createdAt: T },
      change(1, 'Created plan: 3 steps'),
      { id: 'a0', kind: 'assistant', text: '', status: 'done', createdAt: T },
      change(2, 'Updated plan: step 1 “Read the code” started'),
      change(3, 'Updated plan: step 1 “Read the code” completed'),
      { id: 'a1', kind: 'assistant', text: 'All read.', status: 'done', createdAt: T },
    ];
    render(<Transcript items={items} announcement="" />);
    const log = screen.getByRole('log', { name: 'Conversation' });
    expect(within(log).queryByText(/^Updated plan:/)).toBeNull();
    const toggle = within(log).getByRole('button', { name: /^Plan updated 3 times/ });
    expect(toggle.textContent).toBe('Plan updated 3 times · latest: step 1 “Read the code” completed');
    expect(toggle.getAttribute('aria-expanded')).toBe('false');

    fireEvent.click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    const list = document.getElementById(toggle.getAttribute('aria-controls')!)!;
    expect(within(list).getAllByRole('listitem').map((li) => li.textContent)).toEqual([
      'Created plan: 3 steps',
      'Updated plan: step 1 “Read the code” started',
      'Updated plan: step 1 “Read the code” completed',
    ]);
    fireEvent.click(toggle);
    expect(within(list).queryAllByRole('listitem')).toHaveLength(0);
  });
});
