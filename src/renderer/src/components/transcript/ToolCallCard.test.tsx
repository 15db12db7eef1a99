// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { PREPARING_WORKTREE, QUESTION_CANCELLED } from '../../../../shared/tool-results';
import type { ToolCallItem } from '../../../../shared/transcript';
import { storeWrapper } from '../../test-support/store-wrapper';
import { ToolCallCard } from './ToolCallCard';

afterEach(cleanup);

const card = (extra: Partial<ToolCallItem>): ToolCallItem => ({
  id: 'tc1',
  createdAt: '2026-11-27T10:00:00.000Z',
  kind: 'tool_call',
  toolUseId: 'toolu_1',
  name: 'read_file',
  summary: 'Read notes.md',
  input: {},
  status: 'done',
  ...extra,
});

function show(item: ToolCallItem): HTMLElement {
  const { wrapper } = storeWrapper();
  render(<ToolCallCard item={item} />, { wrapper });
  return screen.getByRole('button', { expanded: false });
}

describe('a tool call card', () => {
  it('names an MCP tool once, with its server once ("test: echo"), not as test__echo, test and "test: echo"', () => {
    const header = show(card({ name: 'test__echo', server: 'test', summary: 'test: echo' }));
    expect(header.textContent).not.toContain('test__echo');
    expect(header.textContent!.match(/echo/g)).toHaveLength(1);
    expect(header.textContent!.match(/test/g)).toHaveLength(1);
    expect(header.querySelector('.tool-card-name')!.textContent).toBe('echo');
    expect(header.querySelector('.tool-card-server')!.getAttribute('title')).toBe('MCP server test');
  });

  it('a call waiting for its worktree checkout says "Preparing worktree…", then "running" once it runs', () => {
    expect(show(card({ status: 'running', result: PREPARING_WORKTREE })).querySelector('.tool-card-status')!.textContent).toBe('Preparing worktree…');
    cleanup();
    expect(show(card({ status: 'running' })).querySelector('.tool-card-status')!.textContent).toBe('running');
  });

  it('a question the user cancelled with Stop says "cancelled", not "failed"', () => {
    const header = show(card({ name: 'ask_user', summary: 'Ask: Which database?', status: 'error', errorKind: 'unknown', result: QUESTION_CANCELLED }));
    expect(header.textContent).toContain('cancelled');
    expect(header.textContent).not.toContain('failed');
  });

  it('a diff in a result shows its added and removed lines marked, in words as well as colour', () => {
    const result = ['Edited src/a.ts at line 2.', '--- a/src/a.ts', '+++ b/src/a.ts', '@@ -1,3 +1,3 @@', ' one', '-two', '+TWO', ' three'].join('\n');
    fireEvent.click(show(card({ name: 'edit_file', summary: 'Edit src/a.ts', result })));
    const diff = screen.getByLabelText('Result diff');
    const added = diff.querySelector('[data-diff="add"]')!;
    const removed = diff.querySelector('[data-diff="del"]')!;
    expect(added.textContent).toBe('Added: +TWO');
    expect(removed.textContent).toBe('Removed: -two');
    expect(added.className).toContain('diff-line--add');
    expect(within(diff).getByText('Edited src/a.ts at line 2.')).toBeTruthy();
  });

  it('a result without a diff stays as it is', () => {
    fireEvent.click(show(card({ result: '- a list item\n+ not a diff' })));
    expect(screen.queryByLabelText('Result diff')).toBeNull();
    expect(screen.getByText(/- a list item/)).toBeTruthy();
  });
});
