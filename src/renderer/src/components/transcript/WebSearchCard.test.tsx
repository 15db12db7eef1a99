// @vitest-environment happy-dom
import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { AssistantItem, ToolCallItem } from '../../../../shared/transcript';
import { storeWrapper } from '../../test-support/store-wrapper';
import { AssistantMessage } from './AssistantMessage';
import { ToolCallCard } from './ToolCallCard';

afterEach(cleanup);

const search = (extra: Partial<ToolCallItem>): ToolCallItem => ({
  id: 'ws1',
  createdAt: '2026-11-27T10:00:00.000Z',
  kind: 'tool_call',
  toolUseId: 'srvtoolu_1',
  name: 'web_search',
  summary: 'Searched the web for "node 20"',
  input: { query: 'node 20' },
  status: 'done',
  ...extra,
});

function show(item: ToolCallItem) {
  const { wrapper } = storeWrapper();
  render(<ToolCallCard item={item} />, { wrapper });
}

describe('a web search card', () => {
  it('shows the query and each result as a link with its page age, without being expanded', () => {
    show(search({ result: '2 results', webResults: [{ title: 'Node.js 20 is out', url: 'https://nodejs.org/blog/v20', pageAge: 'April 18, 2023' }, { title: 'V8 notes', url: 'https://v8.dev/blog' }] }));
    expect(screen.getByRole('button', { expanded: false }).textContent).toContain('Searched the web for "node 20"');
    const list = screen.getByRole('list', { name: 'Results of the web search for "node 20"' });
    const links = within(list).getAllByRole('link');
    expect(links.map((a) => [a.textContent, a.getAttribute('href'), a.getAttribute('rel')])).toEqual([
      ['Node.js 20 is out', 'https://nodejs.org/blog/v20', 'noopener noreferrer'],
      ['V8 notes', 'https://v8.dev/blog', 'noopener noreferrer'],
    ]);
    expect(list.textContent).toContain('April 18, 2023');
  });

  it('shows a failed search in words', () => {
    show(search({ status: 'error', result: 'Not searched: Claude reached the "Web searches per request" limit for this request.' }));
    expect(screen.getByText(/reached the "Web searches per request" limit/)).toBeTruthy();
    expect(screen.queryByRole('list')).toBeNull();
  });

  it('does not make a link of a result whose URL is not http(s)', () => {
    show(search({ webResults: [{ title: 'Sneaky', url: 'javascript:alert(1)' }] }));
    expect(screen.queryByRole('link')).toBeNull();
    expect(screen.getByText('Sneaky')).toBeTruthy();
  });
});

describe("a reply's sources", () => {
  it('lists the cited pages under the reply as links', () => {
    const item: AssistantItem = { id: 'a1', createdAt: 'x', kind: 'assistant', text: 'Node 20 has a test runner.', status: 'done', sources: [{ title: 'Node.js 20 is out', url: 'https://nodejs.org/blog/v20' }] };
    const { wrapper } = storeWrapper();
    render(<AssistantMessage item={item} />, { wrapper });
    const sources = screen.getByRole('list', { name: 'Sources' });
    expect(within(sources).getByRole('link', { name: 'Node.js 20 is out' }).getAttribute('href')).toBe('https://nodejs.org/blog/v20');
  });
});
