// @vitest-environment happy-dom
import { cleanup, render, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CodeBlock } from './CodeBlock';
import { prepareHighlight } from './highlight';

// happy-dom has no CSS Custom Highlight API: the registry and Highlight the way Chromium has them,
// enough for code-highlights.ts (a map of named sets of ranges).
beforeEach(() => {
  vi.stubGlobal('CSS', { highlights: new Map<string, Set<unknown>>() });
  vi.stubGlobal('Highlight', class extends Set<unknown> { priority = 0; });
  if (typeof StaticRange === 'undefined') vi.stubGlobal('StaticRange', class { constructor(readonly init: unknown) {} });
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const coloured = () => [...(CSS.highlights as unknown as Map<string, Set<unknown>>).values()].reduce((n, ranges) => n + ranges.size, 0);

describe('CodeBlock with CSS highlights', () => {
  it('mounting code not highlighted yet shows the text at once and colours it in the next idle period', async () => {
    const code = `const opened_${Date.now()} = 1; // not in the cache`;
    const { container } = render(<CodeBlock code={code} lang="ts" />);
    const el = container.querySelector('pre code')!;
    expect(el.textContent).toBe(code);
    expect(el.childNodes).toHaveLength(1); // one text node, no token spans
    expect(coloured()).toBe(0);
    await waitFor(() => expect(coloured()).toBeGreaterThan(0));
    expect(el.textContent).toBe(code);
  });

  it('code highlighted ahead (rows prepared while idle) is coloured as it mounts', () => {
    const code = `const prepared_${Date.now()} = 2;`;
    prepareHighlight(code, 'ts');
    render(<CodeBlock code={code} lang="ts" />);
    expect(coloured()).toBeGreaterThan(0);
  });

  it('once mounted, a change (a reply streaming) is coloured as it renders', async () => {
    const first = `const streamed_${Date.now()} = 3;`;
    const { rerender } = render(<CodeBlock code={first} lang="ts" />);
    await waitFor(() => expect(coloured()).toBeGreaterThan(0));
    const before = coloured();
    rerender(<CodeBlock code={`${first}\nconst more = 4;`} lang="ts" />);
    expect(coloured()).toBeGreaterThan(before);
  });
});
