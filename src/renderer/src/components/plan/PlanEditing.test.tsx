// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WaypointCallError, type CallInput } from '../../../../shared/contract';
import type { Plan } from '../../../../shared/plan';
import { createWaypointStore } from '../../store/create-store';
import { StoreProvider } from '../../store/store-context';
import { plan, step } from '../../test-support/fixtures';
import { MemoryBackend } from '../../test-support/memory-backend';
import { InlineTaskPlan } from './InlineTaskPlan';

// The user's hand on the plan in the panel (docs/contract.md §5): the proposal's buttons, "Edit step"
// with the actions that apply, renaming in place, "Add step", and a refusal said in words. Each
// sends the plan id and the version on screen.

beforeEach(() => localStorage.clear());
afterEach(cleanup);

function setup(shown: Plan, running = false) {
  const backend = new MemoryBackend();
  backend.addChat('s1', 'Chat', { plan: shown });
  const edits: Array<CallInput<'editPlan'>> = [];
  const reviews: Array<CallInput<'reviewPlan'>> = [];
  backend.override('editPlan', (input) => {
    edits.push(input);
    return { version: input.version + 1 };
  });
  backend.override('reviewPlan', (input) => {
    reviews.push(input);
    return { itemId: 'u-1' };
  });
  const store = createWaypointStore(backend);
  store.setState({ currentSessionId: 's1' });
  store.getState().applyPlan('s1', shown);
  if (running) store.getState().setRunState('s1', { status: 'running', phase: 'streaming' });
  render(
    <StoreProvider store={store}>
      <InlineTaskPlan plan={shown} />
    </StoreProvider>,
  );
  const region = screen.getByRole('region', { name: 'Task plan' });
  const item = (title: string) => within(region).getAllByRole('listitem').find((li) => li.querySelector('.plan-step-title, input')?.textContent === title || li.querySelector<HTMLInputElement>('input')?.value === title)!;
  const menuOf = (title: string) => {
    fireEvent.click(within(item(title)).getByRole('button', { name: 'Edit step' }));
    return within(within(item(title)).getByRole('menu'))
      .getAllByRole('menuitem')
      .map((m) => m.textContent);
  };
  return { backend, store, region, edits, reviews, item, menuOf };
}

const flush = () => act(async () => {});

describe('a proposal (plan first)', () => {
  const proposed = plan([step(1, 'Read'), step(2, 'Write')], { version: 4, review: { state: 'proposed' } });

  it('says "Proposed" in the header, and approves the version on screen', async () => {
    const { region, reviews } = setup(proposed);
    expect(within(region).getByRole('button', { expanded: true }).textContent).toContain('Proposed');
    fireEvent.click(within(region).getByRole('button', { name: 'Approve plan' }));
    await flush();
    expect(reviews).toEqual([{ sessionId: 's1', planId: 'plan-1', version: 4, decision: { kind: 'approve' } }]);
  });

  it('"Revise plan" shows "Plan feedback" and "Send feedback", which sends the text', async () => {
    const { region, reviews } = setup(proposed);
    const revise = within(region).getByRole('button', { name: 'Revise plan' });
    fireEvent.click(revise);
    expect(revise.getAttribute('aria-expanded')).toBe('true');
    const send = within(region).getByRole('button', { name: 'Send feedback' });
    expect((send as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(within(region).getByRole('textbox', { name: 'Plan feedback' }), { target: { value: 'Add a changelog step' } });
    fireEvent.click(send);
    await flush();
    expect(reviews).toEqual([{ sessionId: 's1', planId: 'plan-1', version: 4, decision: { kind: 'revise', feedback: 'Add a changelog step' } }]);
    expect(within(region).queryByRole('textbox', { name: 'Plan feedback' })).toBeNull();
  });

  it('waits while Claude is still writing the proposal', () => {
    const { region } = setup(proposed, true);
    expect((within(region).getByRole('button', { name: 'Approve plan' }) as HTMLButtonElement).disabled).toBe(true);
    expect((within(region).getByRole('button', { name: 'Revise plan' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('an approved plan shows neither', () => {
    const { region } = setup({ ...proposed, review: { state: 'approved', version: 4, at: '' } });
    expect(within(region).queryByRole('button', { name: 'Approve plan' })).toBeNull();
    expect(within(region).getByRole('button', { expanded: true }).textContent).not.toContain('Proposed');
  });
});

describe('editing the plan', () => {
  const shown = plan(
    [
      step(1, 'Read', 'completed'),
      step(2, 'Change', 'in_progress'),
      step(3, 'Test', 'pending', { dependsOn: [2] }),
      step(4, 'Docs'),
      step(5, 'Ship'),
    ],
    { version: 7 },
  );

  it('"Edit step" offers only what applies to each step', () => {
    const { item, menuOf } = setup(shown);
    expect(within(item('Read')).queryByRole('button', { name: 'Edit step' })).toBeNull();
    expect(menuOf('Change')).toEqual(['Rename', 'Skip']);
    // 3 is needed by nothing but depends on 2 (running, so no move up past it), and 4 is below.
    expect(menuOf('Test')).toEqual(['Rename', 'Skip', 'Delete', 'Move down']);
    expect(menuOf('Docs')).toEqual(['Rename', 'Skip', 'Delete', 'Move up', 'Move down']);
    expect(menuOf('Ship')).toEqual(['Rename', 'Skip', 'Delete', 'Move up']);
  });

  it('a menu item sends the edit with the plan and version on screen; Escape closes the menu', async () => {
    const { item, menuOf, edits } = setup(shown);
    menuOf('Docs');
    const menu = within(item('Docs')).getByRole('menu');
    fireEvent.keyDown(menu, { key: 'Escape' });
    expect(within(item('Docs')).queryByRole('menu')).toBeNull();
    menuOf('Docs');
    fireEvent.click(within(item('Docs')).getByRole('menuitem', { name: 'Move up' }));
    await flush();
    menuOf('Ship');
    fireEvent.click(within(item('Ship')).getByRole('menuitem', { name: 'Skip' }));
    await flush();
    expect(edits).toEqual([
      { sessionId: 's1', planId: 'plan-1', version: 7, edit: { kind: 'move', stepId: 4, direction: 'up' } },
      { sessionId: 's1', planId: 'plan-1', version: 7, edit: { kind: 'skip', stepId: 5 } },
    ]);
  });

  it('"Rename" shows textbox "Step title": Enter saves, Escape cancels', async () => {
    const { item, menuOf, edits, region } = setup(shown);
    menuOf('Docs');
    fireEvent.click(within(item('Docs')).getByRole('menuitem', { name: 'Rename' }));
    const box = within(region).getByRole('textbox', { name: 'Step title' }) as HTMLInputElement;
    expect(box.value).toBe('Docs');
    fireEvent.keyDown(box, { key: 'Escape' });
    expect(within(region).queryByRole('textbox', { name: 'Step title' })).toBeNull();
    menuOf('Docs');
    fireEvent.click(within(item('Docs')).getByRole('menuitem', { name: 'Rename' }));
    const again = within(region).getByRole('textbox', { name: 'Step title' });
    fireEvent.change(again, { target: { value: 'Write the docs' } });
    fireEvent.keyDown(again, { key: 'Enter' });
    await flush();
    expect(edits).toEqual([{ sessionId: 's1', planId: 'plan-1', version: 7, edit: { kind: 'rename', stepId: 4, title: 'Write the docs' } }]);
    expect(within(region).queryByRole('textbox', { name: 'Step title' })).toBeNull();
  });

  it('"Add step" shows textbox "New step": Enter adds it', async () => {
    const { region, edits } = setup(shown);
    fireEvent.click(within(region).getByRole('button', { name: 'Add step' }));
    const box = within(region).getByRole('textbox', { name: 'New step' });
    fireEvent.change(box, { target: { value: 'Tag the release' } });
    fireEvent.keyDown(box, { key: 'Enter' });
    await flush();
    expect(edits).toEqual([{ sessionId: 's1', planId: 'plan-1', version: 7, edit: { kind: 'add', title: 'Tag the release' } }]);
  });

  it('a refused edit says why, in the region, and keeps the title box open', async () => {
    const { backend, region, item, menuOf } = setup(shown);
    backend.override('editPlan', () => {
      throw new WaypointCallError('invalid_input', 'The new title is empty; give it a short, non-empty title.');
    });
    menuOf('Docs');
    fireEvent.click(within(item('Docs')).getByRole('menuitem', { name: 'Rename' }));
    const box = within(region).getByRole('textbox', { name: 'Step title' });
    fireEvent.change(box, { target: { value: ' ' } });
    fireEvent.keyDown(box, { key: 'Enter' });
    await flush();
    expect(within(region).getByRole('alert').textContent).toBe('The new title is empty; give it a short, non-empty title.');
    expect(within(region).getByRole('textbox', { name: 'Step title' })).toBeTruthy();
  });

  it("lists a step's tool calls with their time, duration and cost", () => {
    const withCalls = plan([step(1, 'Run the tests', 'in_progress', { calls: [{ at: '2025-01-01T10:00:00.000Z', tool: 'run_command', summary: 'Run npm test', durationMs: 2400, ok: false, costUsd: 0.012 }] })]);
    const { region, item } = setup(withCalls);
    expect(item('Run the tests').textContent).toContain('1 tool call');
    fireEvent.click(within(region).getByRole('button', { name: 'Details for step 1' }));
    const detail = within(region).getByText('Tool calls').closest('dl')!;
    expect(detail.textContent).toContain('Run npm test');
    expect(detail.textContent).toMatch(/2\.4 s; \$0\.01; failed/);
  });
});
