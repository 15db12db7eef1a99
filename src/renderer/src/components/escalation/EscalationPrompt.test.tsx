// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { EscalationRequest } from '../../../../shared/prompts';
import { createWaypointStore } from '../../store/create-store';
import { StoreProvider } from '../../store/store-context';
import { MemoryBackend } from '../../test-support/memory-backend';
import { plan, step } from '../../test-support/fixtures';
import { ChatView } from '../ChatView';

afterEach(cleanup);

const attempt = (n: number) => ({
  at: '2025-01-01T00:00:00.000Z', tool: 'edit_file', inputSummary: `path="notes.txt" try ${n}`, error: 'old_text was not found in notes.txt.',
  errorClass: 'not_found' as const, strategy: 'refresh_context_and_retry' as const, outcome: n === 3 ? ('escalated' as const) : ('retrying' as const), durationMs: 3,
});
const request: EscalationRequest = {
  id: 'esc-1', sessionId: 's1', stepId: 2, stepTitle: 'Fix the greeting', toolName: 'edit_file', error: 'old_text was not found in notes.txt.',
  errorClass: 'not_found', attempts: [attempt(1), attempt(2), attempt(3)], createdAt: '2025-01-01T00:00:00.000Z',
};

function setup() {
  const backend = new MemoryBackend();
  backend.addChat('s1', 'Chat', { plan: plan([step(1, 'Read', 'completed'), step(2, 'Fix the greeting', 'in_progress', { attempts: request.attempts })]) });
  const answers: unknown[] = [];
  backend.override('answerEscalation', (input) => {
    answers.push(input.answer);
    return { accepted: true };
  });
  const store = createWaypointStore(backend);
  store.setState({ currentSessionId: 's1' });
  store.getState().applyPlan('s1', backend.chats.get('s1')!.plan);
  store.getState().setRunState('s1', { status: 'awaiting_escalation', requestId: 'esc-1' });
  render(
    <StoreProvider store={store}>
      <ChatView />
    </StoreProvider>,
  );
  return { store, answers };
}

describe('EscalationPrompt', () => {
  it('appears in the plan panel above the steps (outside their scroll area), marks the stuck step, and takes focus', () => {
    const { store } = setup();
    expect(screen.queryByRole('alertdialog')).toBeNull();
    act(() => store.getState().setEscalation('s1', request));
    const dialog = screen.getByRole('alertdialog', { name: 'Step 2 needs your attention' });
    const region = screen.getByRole('region', { name: 'Task plan' });
    expect(region.contains(dialog)).toBe(true);
    expect(dialog.closest('.task-plan-body')).toBeNull();
    const stuck = within(region).getAllByRole('listitem').find((li) => li.getAttribute('data-status') === 'in_progress')!;
    expect(stuck.contains(dialog)).toBe(false);
    expect(stuck.textContent).toContain('needs your answer');
    expect(dialog.textContent).toContain('old_text was not found in notes.txt.');
    expect(within(dialog).getAllByRole('listitem')).toHaveLength(3);
    expect(within(dialog).getByRole('textbox', { name: 'Guidance' })).toBeTruthy();
    for (const name of ['Skip step', 'Abort plan', 'Send guidance']) expect(within(dialog).getByRole('button', { name })).toBeTruthy();
    expect(document.activeElement).toBe(dialog);
  });

  it('sends each answer, refuses empty guidance, and Ctrl+Enter sends guidance', async () => {
    const { store, answers } = setup();
    act(() => store.getState().setEscalation('s1', request));
    const dialog = screen.getByRole('alertdialog');
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: 'Send guidance' })));
    expect(within(dialog).getByRole('alert').textContent).toMatch(/Write how Claude should proceed/);
    expect(answers).toEqual([]);
    const box = within(dialog).getByRole('textbox', { name: 'Guidance' });
    fireEvent.change(box, { target: { value: 'Read the file first.' } });
    await act(async () => fireEvent.keyDown(box, { key: 'Enter', ctrlKey: true }));
    expect(answers).toEqual([{ kind: 'guidance', text: 'Read the file first.' }]);
    expect(screen.queryByRole('alertdialog')).toBeNull(); // accepted: cleared

    act(() => store.getState().setEscalation('s1', { ...request, id: 'esc-2' }));
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Skip step' })));
    act(() => store.getState().setEscalation('s1', { ...request, id: 'esc-3' }));
    // Aborting cancels the whole plan: "Abort plan" asks first, and "Keep the plan" takes it back.
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Abort plan' })));
    expect(answers.slice(1)).toEqual([{ kind: 'skip' }]);
    const confirm = screen.getByRole('group', { name: 'Abort the plan?' });
    await act(async () => fireEvent.click(within(confirm).getByRole('button', { name: 'Keep the plan' })));
    expect(screen.queryByRole('group', { name: 'Abort the plan?' })).toBeNull();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Abort plan' })); // focus back where it was
    expect(answers.slice(1)).toEqual([{ kind: 'skip' }]);
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Abort plan' })));
    await act(async () => fireEvent.click(within(screen.getByRole('group', { name: 'Abort the plan?' })).getByRole('button', { name: 'Yes, abort the plan' })));
    expect(answers.slice(1)).toEqual([{ kind: 'skip' }, { kind: 'abort' }]);
  });

  it('is cleared by escalation_resolved and comes back from a snapshot after a reload', () => {
    const { store } = setup();
    act(() => store.getState().setEscalation('s1', request));
    act(() => store.getState().resolveEscalation('s1', 'other-id'));
    expect(screen.getByRole('alertdialog')).toBeTruthy();
    act(() => store.getState().resolveEscalation('s1', 'esc-1'));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    // A reloaded page gets the pending escalation with the chat's snapshot.
    const held = store.getState().plans.s1!;
    act(() =>
      store.getState().applySnapshot({
        session: store.getState().sessions.find((x) => x.id === 's1') ?? { id: 's1', title: 'Chat', createdAt: '', updatedAt: '' },
        transcript: [],
        olderItems: 0,
        runState: { status: 'awaiting_escalation', requestId: 'esc-1' },
        plan: held,
        pendingEscalation: request,
      }),
    );
    expect(screen.getByRole('alertdialog', { name: 'Step 2 needs your attention' })).toBeTruthy();
  });
});
