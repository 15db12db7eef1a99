// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { BudgetAnswer, BudgetPrompt } from '../../../../shared/budget';
import type { SessionSummary } from '../../../../shared/transcript';
import { createWaypointStore } from '../../store/create-store';
import { StoreProvider } from '../../store/store-context';
import { MemoryBackend } from '../../test-support/memory-backend';
import { plan, session, step } from '../../test-support/fixtures';
import { PlanProposal } from '../plan/PlanProposal';
import { isAsking } from '../../store/chat-asking';
import { parseBudgetDraft } from '../settings/BudgetFields';
import { BudgetReachedPrompt } from './BudgetReachedPrompt';
import { PlanBudgetControl } from './PlanBudgetControl';

afterEach(cleanup);

const request: BudgetPrompt = {
  sessionId: 's1',
  planId: 'plan-1',
  requestId: 'stop-1',
  usd: 0.5,
  reached: { id: 'stop-1', at: '2026-01-01T00:00:00.000Z', limit: 'usd', spentUsd: 0.42, estimateUsd: 0.11, elapsedMinutes: 3 },
};

describe('"Budget reached" (standalone: a request and an answer callback)', () => {
  it('is an alertdialog named "Budget reached" that shows the spend against the budget', () => {
    render(<BudgetReachedPrompt request={request} onAnswer={async () => ({ ok: true })} />);
    const dialog = screen.getByRole('alertdialog', { name: /Budget reached/ });
    expect(dialog.textContent).toContain('$0.42 of $0.50');
    expect(within(dialog).getByRole('textbox', { name: 'New budget (USD)' })).toBeTruthy();
  });

  it('"Extend budget" sends the budget once more, or the figure typed; a bad figure is refused in words and sends nothing', async () => {
    const answers: BudgetAnswer[] = [];
    const onAnswer = vi.fn(async (answer: BudgetAnswer) => {
      answers.push(answer);
      return { ok: true as const };
    });
    render(<BudgetReachedPrompt request={request} onAnswer={onAnswer} />);
    const box = screen.getByRole('textbox', { name: 'New budget (USD)' });
    const extend = screen.getByRole('button', { name: 'Extend budget' });
    for (const [bad, words] of [['0', /more than \$0/], ['-2', /more than \$0/], ['lots', /must be a number of dollars/], ['0.3', /more than the \$0\.42/]] as const) {
      fireEvent.change(box, { target: { value: bad } });
      fireEvent.click(extend);
      expect((await screen.findByRole('alert')).textContent).toMatch(words);
    }
    expect(onAnswer).not.toHaveBeenCalled();
    fireEvent.change(box, { target: { value: '2' } });
    fireEvent.click(extend);
    await waitFor(() => expect(answers).toHaveLength(1));
    fireEvent.change(box, { target: { value: '' } });
    await waitFor(() => expect(extend.hasAttribute('disabled')).toBe(false));
    fireEvent.click(extend);
    await waitFor(() => expect(answers).toHaveLength(2));
    await waitFor(() => expect(extend.hasAttribute('disabled')).toBe(false));
    fireEvent.click(screen.getByRole('button', { name: 'End plan' }));
    await waitFor(() => expect(answers).toEqual([{ kind: 'extend', usd: 2 }, { kind: 'extend' }, { kind: 'end' }]));
  });
});

describe('the plan budget in the "Task plan" region', () => {
  it('shows "$S of $B" while a budget is set; "Budget" opens "Budget (USD)" and "Save budget", which refuses 0 and sends a good figure', async () => {
    const backend = new MemoryBackend();
    backend.addChat('s1', 'Chat');
    const store = createWaypointStore(backend);
    const withBudget = plan([step(1, 'One', 'in_progress')], { budget: { usd: 5 } });
    render(
      <StoreProvider store={store}>
        <PlanBudgetControl plan={withBudget} sessionId="s1" />
      </StoreProvider>,
    );
    expect(screen.getByText('$0.00 of $5.00')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Budget' }));
    const box = screen.getByRole('textbox', { name: 'Budget (USD)' });
    fireEvent.change(box, { target: { value: '0' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save budget' }));
    expect((await screen.findByRole('alert')).textContent).toBe('The budget must be more than $0.');
    expect(backend.log.some((c) => c.name === 'setPlanBudget')).toBe(false);
    backend.override('setPlanBudget', () => ({ version: 2 }));
    fireEvent.change(box, { target: { value: '2.50' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save budget' }));
    await waitFor(() => expect(backend.log.find((c) => c.name === 'setPlanBudget')?.input).toEqual({ sessionId: 's1', planId: 'plan-1', usd: 2.5 }));
  });

  it('has no spend text without a budget', () => {
    const store = createWaypointStore(new MemoryBackend());
    render(
      <StoreProvider store={store}>
        <PlanBudgetControl plan={plan([step(1, 'One', 'pending')])} sessionId="s1" />
      </StoreProvider>,
    );
    expect(screen.queryByText(/ of \$/)).toBeNull();
    expect(screen.getByRole('button', { name: 'Budget' })).toBeTruthy();
  });
});

describe('Settings budget fields', () => {
  it('empty is none; 0, negative or not a number is refused with words', () => {
    expect(parseBudgetDraft({ planBudgetUsd: '', planBudgetMinutes: '' })).toEqual({ ok: true, patch: { planBudgetUsd: null, planBudgetMinutes: null } });
    expect(parseBudgetDraft({ planBudgetUsd: '3', planBudgetMinutes: '45' })).toEqual({ ok: true, patch: { planBudgetUsd: 3, planBudgetMinutes: 45 } });
    expect(parseBudgetDraft({ planBudgetUsd: '0', planBudgetMinutes: 'soon' })).toEqual({
      ok: false,
      errors: { planBudgetUsd: 'The budget must be more than $0.', planBudgetMinutes: 'The time must be a number of minutes, e.g. 30.' },
    });
    expect(parseBudgetDraft({ planBudgetUsd: '-1', planBudgetMinutes: '-5' })).toMatchObject({ ok: false, errors: { planBudgetUsd: expect.any(String), planBudgetMinutes: expect.any(String) } });
  });
});

describe('"Estimated cost" on a plan-first proposal', () => {
  const proposed = plan([step(1, 'One', 'pending'), step(2, 'Two', 'pending')], { review: { state: 'proposed' } });
  const renderProposal = (chat: Partial<SessionSummary>, shown = proposed) => {
    const store = createWaypointStore(new MemoryBackend());
    store.setState({ sessions: [{ ...session('s1', 'Chat'), ...chat }] });
    return render(
      <StoreProvider store={store}>
        <PlanProposal plan={shown} sessionId="s1" />
      </StoreProvider>,
    );
  };

  it('is the plan\'s requests (its estimated tool calls, else 3 per step) at the chat\'s measured cost per request', () => {
    const usage = { inputTokens: 1, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0, costUsd: 0.3 };
    renderProposal({ usage, requestCount: 4 });
    // 2 steps × 3 requests × $0.075.
    expect(screen.getByText(/^Estimated cost: \$0\.45 /)).toBeTruthy();
    cleanup();
    renderProposal({ usage, requestCount: 4 }, { ...proposed, estimatedToolCalls: 20 });
    expect(screen.getByText(/^Estimated cost: \$1\.50 /)).toBeTruthy();
  });

  it('is not shown before the chat has a measured request', () => {
    renderProposal({});
    expect(screen.queryByText(/Estimated cost/)).toBeNull();
  });
});

describe('a plan stopped at its budget asks the person', () => {
  it('counts as asking (the sidebar\'s "Needs you" and the header\'s number) while the stop waits', () => {
    const store = createWaypointStore(new MemoryBackend());
    const running = plan([step(1, 'One', 'in_progress')], { budget: { usd: 1 } });
    store.setState({ plans: { s1: running } });
    expect(isAsking(store.getState(), 's1')).toBe(false);
    store.setState({ plans: { s1: { ...running, budget: { usd: 1, reached: request.reached } } } });
    expect(isAsking(store.getState(), 's1')).toBe(true);
    store.setState({ plans: { s1: { ...running, status: 'partial', budget: { usd: 1, reached: request.reached } } } });
    expect(isAsking(store.getState(), 's1')).toBe(false);
  });
});
