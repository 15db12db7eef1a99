// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TranscriptItem } from '../../../../shared/transcript';
import { fakeLayout } from '../../test-support/fake-layout';
import { Transcript } from './Transcript';

let restoreLayout: () => void;
beforeEach(() => {
  restoreLayout = fakeLayout(600);
});
afterEach(() => {
  cleanup();
  restoreLayout();
});

const T = '2025-01-01T00:00:00.000Z';
const change = (n: number, text: string): TranscriptItem => ({ id: `c${n}`, kind: 'plan_change', text, version: n, createdAt: T });

describe('Transcript', () => {
  it('shows a run of plan changes as one line that expands (aria-expanded) to every change', async () => {
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
    await screen.findByRole('button', { name: /^Plan updated 3 times/ });
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

  // Where it lands (at the end) needs real layout: e2e/long-chat.spec.ts.
  it('mounts only the rows near the view of a long chat, in reading order', async () => {
    const items: TranscriptItem[] = [];
    for (let n = 0; n < 300; n++) {
      items.push({ id: `u${n}`, kind: 'user', text: `Question ${n}`, createdAt: T });
      items.push({ id: `a${n}`, kind: 'assistant', text: `Answer ${n}`, status: 'done', createdAt: T });
    }
    render(<Transcript items={items} announcement="" />);
    const log = screen.getByRole('log', { name: 'Conversation' });
    await within(log).findAllByText(/^Question \d+$/);
    const shown = [...log.querySelectorAll('[data-row]')].map((row) => Number((row as HTMLElement).dataset.row));
    // 600 px of 40 px rows and the virtualiser's buffer: tens of rows, not 600.
    expect(shown.length).toBeGreaterThanOrEqual(15);
    expect(shown.length).toBeLessThan(60);
    expect(shown).toEqual(shown.map((_, i) => shown[0]! + i)); // consecutive, in reading order
    const text = log.textContent ?? '';
    expect(shown.every((row) => text.includes(row % 2 === 0 ? `Question ${row / 2}` : `Answer ${(row - 1) / 2}`))).toBe(true);
  });

  it('keeps the empty-chat hint', () => {
    render(<Transcript items={[]} announcement="" />);
    expect(within(screen.getByRole('log', { name: 'Conversation' })).getByText(/Ask Claude anything/)).toBeTruthy();
  });

  it('revealing a change inside a plan-change group opens the group, again after it was closed', async () => {
    const items: TranscriptItem[] = [
      { id: 'u', kind: 'user', text: 'Plan it', createdAt: T },
      change(1, 'Created plan: 2 steps'),
      change(2, 'Updated plan: step 1 “Read” completed'),
      { id: 'a1', kind: 'assistant', text: 'Done.', status: 'done', createdAt: T },
    ];
    const { rerender } = render(<Transcript items={items} announcement="" reveal={null} />);
    const toggle = await screen.findByRole('button', { name: /^Plan updated 2 times/ });
    expect(toggle.getAttribute('aria-expanded')).toBe('false');

    rerender(<Transcript items={items} announcement="" reveal={{ sessionId: 's1', itemId: 'c2', nonce: 1 }} />);
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    fireEvent.click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    rerender(<Transcript items={items} announcement="" reveal={{ sessionId: 's1', itemId: 'c2', nonce: 2 }} />);
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    // Revealing another item leaves the group as the user left it.
    fireEvent.click(toggle);
    rerender(<Transcript items={items} announcement="" reveal={{ sessionId: 's1', itemId: 'a1', nonce: 3 }} />);
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
  });

  describe('a long chat held in part (paged sessions)', () => {
    const items: TranscriptItem[] = Array.from({ length: 30 }, (_, n) => ({ id: `u${n}`, kind: 'user', text: `Message ${n}`, createdAt: T }));

    it('says politely that earlier messages are loading, and Home asks for all of them', async () => {
      const wants: string[] = [];
      const { rerender } = render(<Transcript items={items} olderItems={40} onNeedOlder={(want) => wants.push(want)} announcement="" />);
      const log = screen.getByRole('log', { name: 'Conversation' });
      const status = within(log).getByRole('status');
      expect(status.getAttribute('aria-live')).toBe('polite');
      expect(status.textContent).toBe('');
      rerender(<Transcript items={items} olderItems={40} loadingOlder onNeedOlder={(want) => wants.push(want)} announcement="" />);
      expect(status.textContent).toBe('Loading earlier messages…');
      fireEvent.keyDown(log, { key: 'Home' });
      expect(wants).toContain('all');
      // Everything loaded: no status left, and Home asks for nothing.
      rerender(<Transcript items={items} olderItems={0} onNeedOlder={(want) => wants.push(want)} announcement="" />);
      expect(within(log).queryByRole('status')).toBeNull();
      wants.length = 0;
      fireEvent.keyDown(log, { key: 'Home' });
      expect(wants).toEqual([]);
    });

    it('a reveal asked for before it was mounted (find, the last time the chat was open) is not acted on; a new one is', async () => {
      const plan: TranscriptItem[] = [{ id: 'u', kind: 'user', text: 'Plan it', createdAt: T }, change(1, 'Created plan: 2 steps'), change(2, 'Updated plan: step 1 “Read” completed')];
      const reveal = { sessionId: 's1', itemId: 'c2', nonce: 4 };
      const { rerender } = render(<Transcript items={plan} announcement="" reveal={reveal} />);
      const toggle = await screen.findByRole('button', { name: /^Plan updated 2 times/ });
      expect(toggle.getAttribute('aria-expanded')).toBe('false');
      rerender(<Transcript items={plan} announcement="" reveal={{ ...reveal, nonce: 5 }} />);
      expect(toggle.getAttribute('aria-expanded')).toBe('true');
    });
  });
});
