// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import hljs from 'highlight.js/lib/core';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TranscriptItem } from '../../../../shared/transcript';
import { fakeLayout } from '../../test-support/fake-layout';
import { storeWrapper } from '../../test-support/store-wrapper';
import { Transcript } from './Transcript';

let restoreLayout: () => void;
beforeEach(() => {
  restoreLayout = fakeLayout(600);
});
afterEach(() => {
  cleanup();
  restoreLayout();
  vi.restoreAllMocks();
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
    render(<Transcript items={items} announcement="" />, storeWrapper());
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
    render(<Transcript items={items} announcement="" />, storeWrapper());
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
    render(<Transcript items={[]} announcement="" />, storeWrapper());
    expect(within(screen.getByRole('log', { name: 'Conversation' })).getByText(/Ask Claude anything/)).toBeTruthy();
  });

  it('revealing a change inside a plan-change group opens the group, again after it was closed', async () => {
    const items: TranscriptItem[] = [
      { id: 'u', kind: 'user', text: 'Plan it', createdAt: T },
      change(1, 'Created plan: 2 steps'),
      change(2, 'Updated plan: step 1 “Read” completed'),
      { id: 'a1', kind: 'assistant', text: 'Done.', status: 'done', createdAt: T },
    ];
    const { rerender } = render(<Transcript items={items} announcement="" reveal={null} />, storeWrapper());
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

  it('keeps what the user opened when its row unmounts (scrolled out of view) and mounts again', async () => {
    const items: TranscriptItem[] = [
      { id: 'u', kind: 'user', text: `${'A long paste. '.repeat(20)}\n${'line\n'.repeat(40)}`, createdAt: T },
      { id: 'th', kind: 'thinking', text: 'Let me think.', status: 'done', createdAt: T },
      change(1, 'Created plan: 2 steps'),
      change(2, 'Updated plan: step 1 “Read” completed'),
      { id: 'tc', kind: 'tool_call', toolUseId: 't1', name: 'read_file', summary: 'Read a.ts', input: { path: 'a.ts' }, status: 'done', result: 'x' },
      { id: 'k', kind: 'compaction', summary: 'Earlier: **topic**.', trigger: 'manual', upTo: 2, tokensBefore: 1000, tokensAfter: 200, costUsd: 0.01, createdAt: T },
    ].map((item) => ({ createdAt: T, ...item }) as TranscriptItem);
    const names = [/^Show all$/, /^Thinking$/, /^Plan updated 2 times/, /^read_file/, /^Compacted/];
    const { store, wrapper } = storeWrapper();
    const first = render(<Transcript items={items} announcement="" />, { wrapper });
    for (const name of names) fireEvent.click(await screen.findByRole('button', { name }));
    for (const name of names) expect(screen.getByRole('button', { name: name.source === '^Show all$' ? /^Show less$/ : name }).getAttribute('aria-expanded')).toBe('true');
    first.unmount();

    render(<Transcript items={items} announcement="" />, { wrapper });
    expect(await screen.findByRole('button', { name: /^Show less$/ })).toBeTruthy();
    for (const name of names.slice(1)) expect((await screen.findByRole('button', { name })).getAttribute('aria-expanded')).toBe('true');
    expect(screen.getByText('Let me think.')).toBeTruthy();
    expect(screen.getByText('Updated plan: step 1 “Read” completed')).toBeTruthy();
    expect(Object.keys(store.getState().disclosures).sort()).toEqual(['c1', 'k', 'tc', 'th', 'u']);
  });

  it('a reveal opens a plan-change group once: closed by the user, it stays closed when its row mounts again', async () => {
    const items: TranscriptItem[] = [
      { id: 'u', kind: 'user', text: 'Plan it', createdAt: T },
      change(1, 'Created plan: 2 steps'),
      change(2, 'Updated plan: step 1 “Read” completed'),
    ];
    const { wrapper } = storeWrapper();
    // Asked for once the transcript is up (one asked for before it mounted is not its own).
    const first = render(<Transcript items={items} announcement="" />, { wrapper });
    first.rerender(<Transcript items={items} announcement="" reveal={{ sessionId: 's1', itemId: 'c2', nonce: 1 }} />);
    const toggle = await screen.findByRole('button', { name: /^Plan updated 2 times/ });
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    fireEvent.click(toggle);
    first.unmount();
    render(<Transcript items={items} announcement="" reveal={{ sessionId: 's1', itemId: 'c2', nonce: 1 }} />, { wrapper });
    expect((await screen.findByRole('button', { name: /^Plan updated 2 times/ })).getAttribute('aria-expanded')).toBe('false');
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
      const { rerender } = render(<Transcript items={plan} announcement="" reveal={reveal} />, storeWrapper());
      const toggle = await screen.findByRole('button', { name: /^Plan updated 2 times/ });
      expect(toggle.getAttribute('aria-expanded')).toBe('false');
      rerender(<Transcript items={plan} announcement="" reveal={{ ...reveal, nonce: 5 }} />);
      expect(toggle.getAttribute('aria-expanded')).toBe('true');
    });
  });
});

describe('preparing rows while idle', () => {
  it('highlights the code of the replies around the view before they mount, and not of rows far from it', async () => {
    const highlighted = new Set<string>();
    const real = hljs.highlight.bind(hljs);
    vi.spyOn(hljs, 'highlight').mockImplementation(((code: string, options: { language: string; ignoreIllegals?: boolean }) => {
      highlighted.add(code);
      return real(code, options);
    }) as typeof hljs.highlight);
    const items: TranscriptItem[] = [];
    // Code unique to this test, so no other test's cache entry stands in for it.
    const code = (n: number) => `const prepared_${n} = ${n}; // use-prepare-rows test`;
    for (let n = 0; n < 300; n++) {
      items.push({ id: `u${n}`, kind: 'user', text: `Question ${n}`, createdAt: T });
      items.push({ id: `a${n}`, kind: 'assistant', text: `Answer ${n}:\n\n\`\`\`ts\n${code(n)}\n\`\`\`\n`, status: 'done', createdAt: T });
    }
    render(<Transcript items={items} announcement="" />, storeWrapper());
    const log = screen.getByRole('log', { name: 'Conversation' });
    await within(log).findAllByText(/^Question \d+$/);
    const rows = [...log.querySelectorAll<HTMLElement>('[data-row]')].map((row) => Number(row.dataset.row));
    const [first, last] = [Math.min(...rows), Math.max(...rows)];
    // Rows alternate question, answer. happy-dom scrolls nothing, so the view stays at the top: the
    // window is the 50 rows below the view (150 above, when there are rows above); the mounted rows
    // reach a little past the view (the virtualiser's buffer), hence the margins.
    const near = items.map((_, row) => row).filter((row) => row % 2 === 1 && ((row < first && row >= first - 140) || (row > last && row <= last + 40)));
    expect(near.length).toBeGreaterThanOrEqual(20);
    await waitFor(() => expect(near.filter((row) => !highlighted.has(code((row - 1) / 2)))).toEqual([]), { timeout: 10_000 });
    const far = items.map((_, row) => row).filter((row) => row % 2 === 1 && (row < first - 160 || row > last + 60));
    expect(far.length).toBeGreaterThan(100);
    expect(far.filter((row) => highlighted.has(code((row - 1) / 2)))).toEqual([]); // left until the view comes near
  });
});
