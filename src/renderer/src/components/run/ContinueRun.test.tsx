// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { NoticeItem } from '../../../../shared/transcript';
import { App } from '../App';
import { connectStore } from '../../store/connect';
import { createWaypointStore } from '../../store/create-store';
import { StoreProvider } from '../../store/store-context';
import { plan, step } from '../../test-support/fixtures';
import { MemoryBackend } from '../../test-support/memory-backend';

// "Max model turns" cut a tool loop short (issue 23 item 11): the step that was in progress stops
// spinning, and "Continue" starts a new run that goes on with the plan. The whole App, the real
// store, the in-memory backend.
let teardown: Array<() => void> = [];
beforeEach(() => localStorage.clear());
afterEach(() => {
  for (const fn of teardown) fn();
  teardown = [];
  cleanup();
});

const turnLimit: NoticeItem = {
  id: 'n1',
  createdAt: '',
  kind: 'notice',
  level: 'warning',
  code: 'turn_limit',
  text: 'Claude used 3 model turns in one go (the "Max model turns" setting), so Waypoint paused it.',
};

describe('a run cut short by "Max model turns"', () => {
  it('leaves no step spinning and offers "Continue", which sends the message that continues the plan', async () => {
    const backend = new MemoryBackend();
    const working = plan([step(1, 'Build', 'completed'), step(2, 'Test', 'in_progress'), step(3, 'Tag')]);
    backend.addChat('a', 'Release', { plan: working, runState: { status: 'running', phase: 'tools' } });
    const store = createWaypointStore(backend);
    teardown.push(connectStore(backend, store, { schedule: (f) => (f(), () => {}), bookkeepingSchedule: (f) => (f(), () => {}), retryDelayMs: () => 20 }));
    render(
      <StoreProvider store={store}>
        <App />
      </StoreProvider>,
    );
    const region = await screen.findByRole('region', { name: 'Task plan' });
    const testing = within(region).getAllByRole('listitem').find((li) => li.textContent?.includes('Test'))!;
    // While Claude works, the step in progress spins.
    expect(testing.querySelector('.plan-spinner')).not.toBeNull();
    expect(screen.queryByRole('button', { name: 'Continue' })).toBeNull();

    act(() => {
      backend.emit({ type: 'transcript_item', sessionId: 'a', item: turnLimit });
      const summary = store.getState().sessions.find((s) => s.id === 'a')!;
      backend.emit({ type: 'session_updated', session: { ...summary, planProgress: { completed: 1, total: 3, status: 'active', paused: true } } });
      backend.emit({ type: 'run_state', sessionId: 'a', state: { status: 'idle' } });
    });
    await waitFor(() => expect(testing.querySelector('.plan-spinner')).toBeNull());
    expect(testing.getAttribute('data-status')).toBe('in_progress');
    expect(within(region).getByRole('button', { name: /Task Plan/ }).textContent).toContain('Paused');

    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    await waitFor(() => expect(backend.log.filter((c) => c.name === 'sendMessage').map((c) => (c.input as { text: string }).text)).toEqual(['Continue the plan: 2 steps left']));
  });
});
