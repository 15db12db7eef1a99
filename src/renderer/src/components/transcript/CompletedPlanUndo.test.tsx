// @vitest-environment happy-dom
import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { PlanCompletionItem } from '../../../../shared/transcript';
import { createWaypointStore } from '../../store/create-store';
import { StoreProvider } from '../../store/store-context';
import { plan, step } from '../../test-support/fixtures';
import { MemoryBackend } from '../../test-support/memory-backend';
import { PlanCompletionCard } from './PlanCompletionCard';

afterEach(cleanup);

const card: PlanCompletionItem = {
  id: 'card-1',
  createdAt: '',
  kind: 'plan_completion',
  goal: 'Ship the feature',
  completion: { status: 'success', summary: 'All done.', issues: [] },
  counts: { completed: 1, failed: 0, skipped: 0, total: 1 },
  planId: 'plan-1',
};

function renderWith(planExtra: Parameters<typeof plan>[1]) {
  const store = createWaypointStore(new MemoryBackend());
  act(() => {
    store.setState({ currentSessionId: 's1' });
    store.getState().applyPlan('s1', plan([step(1, 'Ship', 'completed')], { status: 'completed', ...planExtra }));
  });
  render(
    <StoreProvider store={store}>
      <PlanCompletionCard item={card} />
    </StoreProvider>,
  );
}

describe("a finished plan's card", () => {
  it('offers "Undo plan" while the plan stands', () => {
    renderWith({});
    expect(screen.getByRole('button', { name: 'Undo plan' })).toBeTruthy();
  });

  it('offers no "Undo plan" once the undo put every file back; it still does while a file changed outside was left', () => {
    renderWith({ undone: { at: '', restored: ['a.txt'], deleted: [], skipped: [] } });
    expect(screen.queryByRole('button', { name: 'Undo plan' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Export plan' })).toBeTruthy();
    cleanup();
    renderWith({ undone: { at: '', restored: [], deleted: [], skipped: ['b.txt'] } });
    expect(screen.getByRole('button', { name: 'Undo plan' })).toBeTruthy();
  });
});
