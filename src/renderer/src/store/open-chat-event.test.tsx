// @vitest-environment happy-dom
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ApprovalRequest } from '../../../shared/prompts';
import { MemoryBackend } from '../test-support/memory-backend';
import { mountApp, unmountApps } from '../test-support/mount-app';

/**
 * The window's half of a desktop notification's click (docs/contract.md §8 "Notifications"): main
 * restores the window and sends `open_chat` (src/main/electron/attention-notifier.test.ts), and the
 * window then shows that chat with the prompt it waits on, over whatever was open.
 */
beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
});
afterEach(unmountApps);

const approval: ApprovalRequest = {
  id: 'req-1',
  sessionId: 'b',
  toolUseId: 'toolu_1',
  toolName: 'edit_file',
  kind: 'edit',
  summary: 'Edit src/a.ts',
  dryRun: 'Would edit src/a.ts',
  createdAt: '2025-01-05T00:00:00.000Z',
};

describe('a desktop notification clicked (open_chat from main)', () => {
  it('opens that chat at its approval card, closing Settings if it was open', async () => {
    const backend = new MemoryBackend();
    backend.addChat('a', 'Alpha', { updatedAt: '2025-01-04T00:00:00.000Z' });
    backend.addChat('b', 'Beta', { updatedAt: '2025-01-03T00:00:00.000Z', runState: { status: 'awaiting_approval', requestId: 'req-1' } });
    // As main does: the waiting chat opens with the approval it waits on.
    backend.override('getSession', ({ sessionId }) => {
      const chat = backend.chats.get(sessionId)!;
      return { session: chat.summary, transcript: chat.transcript, olderItems: 0, runState: chat.runState, plan: chat.plan, ...(sessionId === 'b' ? { pendingApproval: approval } : {}) };
    });
    mountApp(backend);
    await waitFor(() => expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Alpha'));
    fireEvent.click(screen.getByRole('button', { name: 'Settings' }));
    expect(screen.getByRole('dialog', { name: 'Settings' })).toBeTruthy();
    expect(screen.queryByRole('alertdialog')).toBeNull();

    backend.emit({ type: 'open_chat', sessionId: 'b' });
    await waitFor(() => expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Beta'));
    expect(screen.queryByRole('dialog', { name: 'Settings' })).toBeNull();
    expect(await screen.findByRole('alertdialog', { name: 'Approve this file change? Edit src/a.ts' })).toBeTruthy();
  });
});
