// @vitest-environment happy-dom
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import hljs from 'highlight.js/lib/core';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
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
  vi.restoreAllMocks();
});

const T = '2025-01-01T00:00:00.000Z';

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
    render(<Transcript items={items} announcement="" />);
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
