// @vitest-environment happy-dom
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { plan, step } from '../../test-support/fixtures';
import { MemoryBackend } from '../../test-support/memory-backend';
import { mountApp, unmountApps } from '../../test-support/mount-app';

beforeEach(() => localStorage.clear());
afterEach(unmountApps);

describe('the header\'s "Needs you (N)"', () => {
  it('counts the chats waiting for a person and lists each with what is asked; "Open chat" opens it', async () => {
    const backend = new MemoryBackend();
    backend.addChat('a', 'Alpha', { updatedAt: '2025-01-04T00:00:00.000Z' });
    backend.addChat('b', 'Beta', { updatedAt: '2025-01-03T00:00:00.000Z' });
    backend.addChat('c', 'Gamma', { updatedAt: '2025-01-02T00:00:00.000Z' });
    mountApp(backend);
    const button = await screen.findByRole('button', { name: 'Needs you (0)' });

    const question = { id: 'q1', sessionId: 'b', toolUseId: 't1', question: 'Which file?', options: ['a.ts', 'b.ts'], allowText: false, createdAt: '2025-01-05T00:00:00.000Z' };
    // As main does: the chat opens with the question it waits on.
    backend.override('getSession', ({ sessionId }) => {
      const chat = backend.chats.get(sessionId)!;
      return { session: chat.summary, transcript: [], olderItems: 0, runState: chat.runState, plan: null, ...(sessionId === 'b' ? { pendingQuestion: question } : {}) };
    });
    backend.emit({ type: 'question_requested', sessionId: 'b', request: question });
    backend.emit({ type: 'run_state', sessionId: 'c', state: { status: 'awaiting_approval', requestId: 'r1' } });
    await waitFor(() => expect(button.textContent).toBe('Needs you (2)'));

    fireEvent.click(button);
    const dialog = screen.getByRole('dialog', { name: 'Needs you' });
    const items = within(dialog).getAllByRole('listitem');
    // Each item is named by its chat's title and starts with what is asked.
    expect(items.map((li) => li.getAttribute('aria-labelledby') && document.getElementById(li.getAttribute('aria-labelledby')!)?.textContent)).toEqual(['Beta', 'Gamma']);
    expect(items.map((li) => li.querySelector('p')?.textContent)).toEqual(['Claude asks: Which file?', 'Waiting for your answer']);
    fireEvent.click(within(items[0]!).getByRole('button', { name: 'Open chat' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Needs you' })).toBeNull());
    await waitFor(() => expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Beta'));
    await waitFor(() => expect(screen.getByRole('alertdialog', { name: /Claude asks: Which file\?/ })).toBeTruthy());

    backend.emit({ type: 'question_resolved', sessionId: 'b', requestId: 'q1', outcome: 'answered' });
    await waitFor(() => expect(button.textContent).toBe('Needs you (1)'));
  });

  it('counts a plan waiting for approval, says so in its line, and keeps counting it once the chat is open', async () => {
    const backend = new MemoryBackend();
    backend.addChat('a', 'Alpha', { updatedAt: '2025-01-04T00:00:00.000Z' });
    backend.addChat('p', 'Planned', { updatedAt: '2025-01-03T00:00:00.000Z', plan: plan([step(1, 'Read'), step(2, 'Write')], { review: { state: 'proposed' } }) });
    // As listSessions stamps it: the proposal waits for the person.
    backend.chats.get('p')!.summary.run = 'needs-you';
    mountApp(backend);
    const button = await screen.findByRole('button', { name: 'Needs you (1)' });
    fireEvent.click(screen.getByRole('button', { name: /Planned/ }));
    await waitFor(() => expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Planned'));
    await screen.findByText('Ship the feature');
    expect(button.textContent).toBe('Needs you (1)');
    const row = within(screen.getByRole('navigation', { name: 'Chats' })).getAllByRole('listitem').find((li) => li.textContent?.includes('Planned'))!;
    expect(row.dataset.run).toBe('needs-you');
    fireEvent.click(button);
    const dialog = screen.getByRole('dialog', { name: 'Needs you' });
    const item = within(dialog).getByRole('listitem', { name: 'Planned' });
    expect(item.querySelector('p')?.textContent).toBe('Approve the plan: Ship the feature');
    expect(within(item).getByRole('button', { name: 'Approve plan' })).toBeTruthy();
  });
});

describe('"Budget reached" in dialog "Needs you"', () => {
  it('counts a chat known only by the list\'s stamp whose plan stopped at its budget, says so, and "End plan" there answers main', async () => {
    const backend = new MemoryBackend();
    backend.addChat('a', 'Alpha', { updatedAt: '2025-01-04T00:00:00.000Z' });
    const reached = { id: 'stop-1', at: '2025-01-05T00:00:00.000Z', limit: 'usd' as const, spentUsd: 0.42, estimateUsd: 0.11, elapsedMinutes: 3 };
    backend.addChat('s', 'Stopped', { updatedAt: '2025-01-03T00:00:00.000Z', plan: plan([step(1, 'Read', 'in_progress')], { budget: { usd: 0.5, reached } }) });
    // As listSessions stamps it after a restart: the plan's stop waits for the person.
    backend.chats.get('s')!.summary.run = 'needs-you';
    backend.override('answerBudget', () => ({ accepted: true }));
    mountApp(backend);
    const button = await screen.findByRole('button', { name: 'Needs you (1)' });
    fireEvent.click(button);
    const dialog = screen.getByRole('dialog', { name: 'Needs you' });
    const item = within(dialog).getByRole('listitem', { name: 'Stopped' });
    await waitFor(() => expect(item.querySelector('p')?.textContent).toBe('Budget reached: spent $0.42 of $0.50. Extend the budget or end the plan.'));
    expect(within(item).getByRole('textbox', { name: 'New budget (USD)' })).toBeTruthy();
    expect(within(item).getByRole('button', { name: 'Extend budget' })).toBeTruthy();
    fireEvent.click(within(item).getByRole('button', { name: 'End plan' }));
    await waitFor(() => expect(backend.log.filter((c) => c.name === 'answerBudget').map((c) => c.input)).toEqual([{ sessionId: 's', requestId: 'stop-1', answer: { kind: 'end' } }]));
  });
});

describe('answering in dialog "Needs you"', () => {
  const approval = { id: 'r1', sessionId: 'b', toolUseId: 't1', toolName: 'run_command', kind: 'command' as const, summary: 'Run npm test in ./', dryRun: 'npm test', scope: { tool: 'run_command', pattern: 'npm test' }, createdAt: '2025-01-05T00:00:00.000Z' };
  const question = { id: 'q1', sessionId: 'c', toolUseId: 't2', question: 'Which file?', options: ['a.ts', 'b.ts'], allowText: true, createdAt: '2025-01-05T00:00:00.000Z' };

  it("shows each waiting chat's own answer buttons, even one known only by the list's stamp; an answer there goes to main, the item leaves, the focus stays in the dialog", async () => {
    const backend = new MemoryBackend();
    backend.addChat('a', 'Alpha', { updatedAt: '2025-01-04T00:00:00.000Z' });
    backend.addChat('b', 'Beta', { updatedAt: '2025-01-03T00:00:00.000Z' });
    backend.addChat('c', 'Gamma', { updatedAt: '2025-01-02T00:00:00.000Z' });
    // Gamma waits since before this window loaded: the list's stamp is all it knows, main says the rest.
    backend.chats.get('c')!.summary.run = 'needs-you';
    backend.override('getPendingPrompts', ({ sessionId }) => ({ pendingApproval: null, pendingEscalation: null, pendingQuestion: sessionId === 'c' ? question : null, proposedPlan: null }));
    backend.override('answerApproval', () => {
      backend.emit({ type: 'approval_resolved', sessionId: 'b', requestId: 'r1', decision: 'approved' });
      backend.emit({ type: 'run_state', sessionId: 'b', state: { status: 'running', phase: 'requesting' } });
      return { accepted: true };
    });
    backend.override('answerQuestion', () => {
      backend.emit({ type: 'question_resolved', sessionId: 'c', requestId: 'q1', outcome: 'answered' });
      backend.emit({ type: 'run_state', sessionId: 'c', state: { status: 'running', phase: 'requesting' } });
      return { accepted: true };
    });
    mountApp(backend);
    const button = await screen.findByRole('button', { name: 'Needs you (1)' });
    backend.emit({ type: 'approval_requested', sessionId: 'b', request: approval });
    backend.emit({ type: 'run_state', sessionId: 'b', state: { status: 'awaiting_approval', requestId: 'r1' } });
    await waitFor(() => expect(button.textContent).toBe('Needs you (2)'));
    const heading = screen.getByRole('heading', { level: 1 }).textContent;

    fireEvent.click(button);
    const dialog = screen.getByRole('dialog', { name: 'Needs you' });
    const beta = within(dialog).getByRole('listitem', { name: 'Beta' });
    for (const name of ['Approve', 'Approve for this chat', 'Always approve', 'Deny', 'Open chat']) expect(within(beta).getByRole('button', { name })).toBeTruthy();
    const gamma = within(dialog).getByRole('listitem', { name: 'Gamma' });
    await within(gamma).findByRole('button', { name: 'a.ts' });
    expect(within(gamma).getByRole('textbox', { name: 'Your answer' })).toBeTruthy();
    expect(within(gamma).getByRole('button', { name: 'Send answer' })).toBeTruthy();
    expect(backend.log.filter((c) => c.name === 'getPendingPrompts').map((c) => c.input)).toEqual([{ sessionId: 'c' }]);
    // The prompts in the dialog leave the focus where the dialog put it (its first control), not on the last prompt shown.
    expect(beta.contains(document.activeElement)).toBe(true);

    const approve = within(beta).getByRole('button', { name: 'Approve' });
    approve.focus();
    fireEvent.click(approve);
    await waitFor(() => expect(button.textContent).toBe('Needs you (1)'));
    expect(within(dialog).queryByRole('listitem', { name: 'Beta' })).toBeNull();
    expect(backend.log.filter((c) => c.name === 'answerApproval').map((c) => c.input)).toEqual([{ sessionId: 'b', requestId: 'r1', decision: 'approve' }]);
    // The next item takes the focus; the chat was not opened.
    await waitFor(() => expect(within(dialog).getByRole('listitem', { name: 'Gamma' }).contains(document.activeElement)).toBe(true));
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe(heading);
    expect(backend.log.some((c) => c.name === 'getSession' && (c.input as { sessionId: string }).sessionId === 'b')).toBe(false);

    const option = within(dialog).getByRole('button', { name: 'a.ts' });
    option.focus();
    fireEvent.click(option);
    await waitFor(() => expect(button.textContent).toBe('Needs you (0)'));
    expect(backend.log.filter((c) => c.name === 'answerQuestion').map((c) => c.input)).toEqual([{ sessionId: 'c', requestId: 'q1', answer: 'a.ts' }]);
    expect(within(dialog).getByText('No chat is waiting for you.')).toBeTruthy();
    await waitFor(() => expect(dialog.contains(document.activeElement)).toBe(true));

    fireEvent.keyDown(dialog, { key: 'Escape' });
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Needs you' })).toBeNull());
  });
});

describe('a waiting chat deleted (in another window) while dialog "Needs you" shows it', () => {
  it('leaves the dialog and the count; the focus stays in the dialog', async () => {
    const backend = new MemoryBackend();
    backend.addChat('a', 'Alpha', { updatedAt: '2025-01-04T00:00:00.000Z' });
    backend.addChat('b', 'Beta', { updatedAt: '2025-01-03T00:00:00.000Z' });
    const question = { id: 'q1', sessionId: 'b', toolUseId: 't1', question: 'Which file?', options: ['a.ts'], allowText: false, createdAt: '2025-01-05T00:00:00.000Z' };
    mountApp(backend);
    const button = await screen.findByRole('button', { name: 'Needs you (0)' });
    backend.emit({ type: 'question_requested', sessionId: 'b', request: question });
    backend.emit({ type: 'run_state', sessionId: 'b', state: { status: 'awaiting_question', requestId: 'q1' } });
    await waitFor(() => expect(button.textContent).toBe('Needs you (1)'));
    fireEvent.click(button);
    const dialog = screen.getByRole('dialog', { name: 'Needs you' });
    expect(within(dialog).getByRole('listitem', { name: 'Beta' }).contains(document.activeElement)).toBe(true);

    backend.chats.delete('b');
    backend.emit({ type: 'session_deleted', sessionId: 'b' });
    await waitFor(() => expect(button.textContent).toBe('Needs you (0)'));
    expect(within(dialog).queryByRole('listitem')).toBeNull();
    expect(within(dialog).getByText('No chat is waiting for you.')).toBeTruthy();
    await waitFor(() => expect(dialog.contains(document.activeElement)).toBe(true));
  });
});

describe('a stuck step in dialog "Needs you"', () => {
  it('shows the escalation\'s own controls; "Send guidance" there answers the chat with the guidance', async () => {
    const backend = new MemoryBackend();
    backend.addChat('a', 'Alpha', { updatedAt: '2025-01-04T00:00:00.000Z' });
    backend.addChat('s', 'Stuck', { updatedAt: '2025-01-03T00:00:00.000Z' });
    const request = { id: 'e1', sessionId: 's', stepId: null, stepTitle: 'Place columns', toolName: 'edit_file', error: 'conflict', errorClass: 'conflict' as const, attempts: [], createdAt: '2025-01-05T00:00:00.000Z' };
    backend.override('answerEscalation', () => ({ accepted: true }));
    mountApp(backend);
    const button = await screen.findByRole('button', { name: 'Needs you (0)' });
    backend.emit({ type: 'escalation_requested', sessionId: 's', request });
    await waitFor(() => expect(button.textContent).toBe('Needs you (1)'));
    fireEvent.click(button);
    const item = within(screen.getByRole('dialog', { name: 'Needs you' })).getByRole('listitem', { name: 'Stuck' });
    expect(item.querySelector('p')?.textContent).toBe('Stuck step: Place columns');
    for (const name of ['Skip step', 'Abort plan', 'Send guidance', 'Open chat']) expect(within(item).getByRole('button', { name })).toBeTruthy();
    fireEvent.change(within(item).getByRole('textbox', { name: 'Guidance' }), { target: { value: 'Use a grid instead.' } });
    fireEvent.click(within(item).getByRole('button', { name: 'Send guidance' }));
    await waitFor(() => expect(backend.log.filter((c) => c.name === 'answerEscalation').map((c) => c.input)).toEqual([{ sessionId: 's', requestId: 'e1', answer: { kind: 'guidance', text: 'Use a grid instead.' } }]));
  });
});

describe("a sub-agent's question", () => {
  it('is labelled "Sub-agent: TITLE" in the chat and in "Needs you", with the same answer buttons; Approve there answers main', async () => {
    const backend = new MemoryBackend();
    backend.addChat('a', 'Alpha', { updatedAt: '2025-01-04T00:00:00.000Z' });
    const answers: unknown[] = [];
    backend.override('answerApproval', (input) => (answers.push(input), { accepted: true }));
    mountApp(backend);
    const button = await screen.findByRole('button', { name: 'Needs you (0)' });
    const request = {
      id: 'r-sub',
      sessionId: 'a',
      toolUseId: 'toolu_1',
      toolName: 'run_command',
      kind: 'command' as const,
      summary: 'Run npm test in ./',
      dryRun: 'npm test',
      agent: { id: 'a-1', title: 'Check the tests', depth: 1 },
      createdAt: '2025-01-05T00:00:00.000Z',
    };
    backend.emit({ type: 'approval_requested', sessionId: 'a', request });
    backend.emit({ type: 'run_state', sessionId: 'a', state: { status: 'awaiting_approval', requestId: 'r-sub' } });
    // In the chat (open): the prompt's name starts with whose question it is.
    await screen.findByRole('alertdialog', { name: 'Sub-agent: Check the tests Approve this command? Run npm test in ./' });
    await waitFor(() => expect(button.textContent).toBe('Needs you (1)'));
    fireEvent.click(button);
    const dialog = screen.getByRole('dialog', { name: 'Needs you' });
    const item = within(dialog).getByRole('listitem', { name: 'Alpha' });
    expect(item.querySelector('p')?.textContent).toBe('Sub-agent: Check the tests: Approve: Run npm test in ./');
    const prompt = within(item).getByRole('alertdialog', { name: /^Sub-agent: Check the tests Approve this command\?/ });
    fireEvent.click(within(prompt).getByRole('button', { name: 'Approve' }));
    await waitFor(() => expect(answers).toEqual([{ sessionId: 'a', requestId: 'r-sub', decision: 'approve' }]));
  });
});
