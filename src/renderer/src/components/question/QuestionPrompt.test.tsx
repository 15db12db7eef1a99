// @vitest-environment happy-dom
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { WaypointCallError } from '../../../../shared/contract';
import type { QuestionRequest } from '../../../../shared/prompts';
import { MemoryBackend } from '../../test-support/memory-backend';
import { mountApp, unmountApps } from '../../test-support/mount-app';

afterEach(unmountApps);

const request = (extra: Partial<QuestionRequest> = {}): QuestionRequest => ({
  id: 'q-1',
  sessionId: 's1',
  toolUseId: 'toolu_q',
  question: 'Which database?',
  options: ['PostgreSQL', 'SQLite'],
  allowText: false,
  createdAt: '2025-01-01T00:00:00.000Z',
  ...extra,
});

function setup() {
  const backend = new MemoryBackend();
  backend.addChat('s1', 'Chat');
  const answers: unknown[] = [];
  backend.override('answerQuestion', (input) => {
    answers.push(input);
    return { accepted: true };
  });
  mountApp(backend);
  return { backend, answers };
}

describe('a question from Claude', () => {
  it('is an alertdialog "Claude asks: …" that takes the focus, with one button per option; a click answers once', async () => {
    const { backend, answers } = setup();
    await screen.findByRole('textbox', { name: 'Message' });
    backend.emit({ type: 'question_requested', sessionId: 's1', request: request() });
    const dialog = await screen.findByRole('alertdialog', { name: 'Claude asks: Which database?' });
    expect(document.activeElement).toBe(dialog);
    expect(within(dialog).getAllByRole('button').map((b) => b.textContent)).toEqual(['PostgreSQL', 'SQLite']);
    expect(within(dialog).queryByRole('textbox', { name: 'Your answer' })).toBeNull();
    fireEvent.click(within(dialog).getByRole('button', { name: 'SQLite' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(answers).toEqual([{ sessionId: 's1', requestId: 'q-1', answer: 'SQLite' }]);
  });

  it('takes typed text when allowed, verbatim, and says so when the box is empty', async () => {
    const { backend, answers } = setup();
    await screen.findByRole('textbox', { name: 'Message' });
    backend.emit({ type: 'question_requested', sessionId: 's1', request: request({ options: [], allowText: true, question: 'Name?' }) });
    const dialog = await screen.findByRole('alertdialog', { name: 'Claude asks: Name?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send answer' }));
    expect(within(dialog).getByRole('alert').textContent).toBe('Type an answer first.');
    fireEvent.change(within(dialog).getByRole('textbox', { name: 'Your answer' }), { target: { value: '  report_builder ' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send answer' }));
    await waitFor(() => expect(answers).toEqual([{ sessionId: 's1', requestId: 'q-1', answer: '  report_builder ' }]));
  });

  it('comes back from the snapshot after a reload, and goes when main resolves it (Stop, another tab)', async () => {
    const backend = new MemoryBackend();
    backend.addChat('s1', 'Chat');
    const chat = backend.chats.get('s1')!;
    backend.override('getSession', () => ({ session: chat.summary, transcript: [], olderItems: 0, runState: { status: 'awaiting_question', requestId: 'q-1' }, plan: null, pendingQuestion: request() }));
    mountApp(backend);
    await screen.findByRole('alertdialog', { name: 'Claude asks: Which database?' });
    expect(screen.getByRole('button', { name: 'Stop' })).toBeTruthy();
    backend.emit({ type: 'question_resolved', sessionId: 's1', requestId: 'another', outcome: 'cancelled' });
    expect(screen.getByRole('alertdialog')).toBeTruthy();
    backend.emit({ type: 'question_resolved', sessionId: 's1', requestId: 'q-1', outcome: 'cancelled' });
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
  });

  it('an answer main no longer waits for (another tab answered) closes it and says so; a refused one stays, with the reason', async () => {
    const { backend } = setup();
    await screen.findByRole('textbox', { name: 'Message' });
    backend.override('answerQuestion', () => {
      throw new WaypointCallError('invalid_input', 'Claude asked for one of: "PostgreSQL", "SQLite". Pick one of those.');
    });
    backend.emit({ type: 'question_requested', sessionId: 's1', request: request({ allowText: true }) });
    const dialog = await screen.findByRole('alertdialog');
    fireEvent.click(within(dialog).getByRole('button', { name: 'PostgreSQL' }));
    expect((await within(dialog).findByRole('alert')).textContent).toContain('Pick one of those.');
    backend.override('answerQuestion', () => ({ accepted: false }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'SQLite' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(screen.getByRole('alert').textContent).toContain('That question was already answered (in another window?) or cancelled: nothing changed.');
  });
});
