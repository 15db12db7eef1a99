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
    expect(items.map((li) => li.textContent)).toEqual(['BetaClaude asks: Which file?Open chat', 'GammaWaiting for your answerOpen chat']);
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
    expect(within(dialog).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['PlannedApprove the plan: Ship the featureOpen chat']);
  });
});
