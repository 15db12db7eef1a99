// @vitest-environment happy-dom
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { plan, step } from '../../test-support/fixtures';
import { MemoryBackend } from '../../test-support/memory-backend';
import { mountApp, unmountApps } from '../../test-support/mount-app';

beforeEach(() => localStorage.clear());
afterEach(unmountApps);

const row = (title: string) => within(screen.getByRole('navigation', { name: 'Chats' })).getAllByRole('listitem').find((li) => li.textContent?.includes(title))!;

describe("a chat's row says what the chat is doing (data-run and words)", () => {
  it('"Working" with its plan\'s N/M, "Queued", "Needs you" from the events of each chat, whichever chat is open', async () => {
    const backend = new MemoryBackend();
    backend.addChat('a', 'Alpha', { updatedAt: '2025-01-04T00:00:00.000Z', plan: plan([step(1, 'Read', 'completed'), step(2, 'Write')]) });
    backend.addChat('b', 'Beta', { updatedAt: '2025-01-03T00:00:00.000Z' });
    backend.addChat('c', 'Gamma', { updatedAt: '2025-01-02T00:00:00.000Z' });
    mountApp(backend);
    await screen.findByRole('button', { name: /Beta/ });
    expect(row('Beta').dataset.run).toBe('idle');

    const summaryOf = (id: string) => backend.chats.get(id)!.summary;
    backend.emit({ type: 'session_updated', session: { ...summaryOf('a'), planProgress: { completed: 1, total: 2, status: 'active' } } });
    backend.emit({ type: 'run_state', sessionId: 'a', state: { status: 'running', phase: 'streaming' } });
    backend.emit({ type: 'session_updated', session: { ...summaryOf('b'), queued: 1_700_000_000_000 } });
    backend.emit({
      type: 'question_requested',
      sessionId: 'c',
      request: { id: 'q1', sessionId: 'c', toolUseId: 't1', question: 'Which file?', options: ['a.ts', 'b.ts'], allowText: false, createdAt: '2025-01-05T00:00:00.000Z' },
    });
    await waitFor(() => expect(row('Alpha').dataset.run).toBe('working'));
    expect(row('Alpha').textContent).toMatch(/Working 1\/2/);
    expect(row('Beta').dataset.run).toBe('queued');
    expect(row('Beta').textContent).toContain('Queued');
    expect(row('Gamma').dataset.run).toBe('needs-you');
    expect(row('Gamma').textContent).toContain('Needs you');

    backend.emit({ type: 'run_state', sessionId: 'a', state: { status: 'idle' } });
    backend.emit({ type: 'session_updated', session: summaryOf('b') });
    backend.emit({ type: 'question_resolved', sessionId: 'c', requestId: 'q1', outcome: 'answered' });
    await waitFor(() => expect(row('Alpha').dataset.run).toBe('idle'));
    expect(row('Beta').dataset.run).toBe('idle');
    expect(row('Gamma').dataset.run).toBe('idle');
    expect(row('Alpha').textContent).not.toContain('Working');
  });

  it('"Needs you" while a sub-agent\'s question waits, though the chat\'s run goes on (its other sub-agents work)', async () => {
    const backend = new MemoryBackend();
    backend.addChat('a', 'Alpha', { updatedAt: '2025-01-04T00:00:00.000Z' });
    backend.addChat('b', 'Beta', { updatedAt: '2025-01-03T00:00:00.000Z' });
    mountApp(backend);
    await screen.findByRole('button', { name: /Beta/ });
    backend.emit({ type: 'run_state', sessionId: 'b', state: { status: 'running', phase: 'tools' } });
    backend.emit({
      type: 'question_requested',
      sessionId: 'b',
      request: { id: 'q1', sessionId: 'b', toolUseId: 't1', question: 'Which file?', options: ['a.ts'], allowText: false, agent: { id: 'a-2', title: 'Dig deeper', depth: 2 }, createdAt: '2025-01-05T00:00:00.000Z' },
    });
    backend.emit({ type: 'run_state', sessionId: 'b', state: { status: 'running', phase: 'tools' } });
    await waitFor(() => expect(row('Beta').dataset.run).toBe('needs-you'));
    expect(row('Beta').textContent).toContain('Needs you');
    expect(screen.getByRole('button', { name: /^Needs you \(1\)/ })).toBeTruthy();
  });

  it('after a reload, takes "working" and "needs-you" from the list until the chat\'s own events come', async () => {
    const backend = new MemoryBackend();
    backend.addChat('a', 'Alpha', { updatedAt: '2025-01-04T00:00:00.000Z' });
    backend.addChat('b', 'Beta', { updatedAt: '2025-01-03T00:00:00.000Z' });
    backend.chats.get('a')!.summary = { ...backend.chats.get('a')!.summary, run: 'working' };
    backend.chats.get('b')!.summary = { ...backend.chats.get('b')!.summary, run: 'needs-you' };
    mountApp(backend);
    await waitFor(() => expect(row('Beta').dataset.run).toBe('needs-you'));
    // The open chat's own state is known (getSession): Alpha, opened first, is idle in the backend.
    backend.emit({ type: 'session_updated', session: { ...backend.chats.get('b')!.summary, run: undefined, title: 'Beta renamed' } });
    await waitFor(() => expect(row('Beta renamed').dataset.run).toBe('needs-you'));
  });
});
