// @vitest-environment happy-dom
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { WaypointCallError } from '../../../../shared/contract';
import type { TranscriptItem } from '../../../../shared/transcript';
import { plan, step } from '../../test-support/fixtures';
import { MemoryBackend } from '../../test-support/memory-backend';
import { mountApp, unmountApps } from '../../test-support/mount-app';

afterEach(unmountApps);

const T = '2025-01-01T00:00:00.000Z';
const user = (id: string, text: string): TranscriptItem => ({ id, kind: 'user', text, createdAt: T });
const reply = (id: string, text: string): TranscriptItem => ({ id, kind: 'assistant', text, status: 'done', createdAt: T });

function setup(runState: { status: 'idle' } | { status: 'running'; phase: 'streaming' } = { status: 'idle' }) {
  const backend = new MemoryBackend();
  backend.addChat('s1', 'Chat', {
    transcript: [user('u1', 'first'), reply('a1', 'One.'), user('u2', 'second'), reply('a2', 'Two.')],
    plan: plan([step(1, 'Do it')]),
    runState,
  });
  const calls: unknown[] = [];
  backend.override('previewRerun', () => ({ files: [{ path: 'NOTES.md', action: 'delete', changedOutside: false }], commands: 0 }));
  backend.override('editMessage', (input) => {
    calls.push(input);
    return { itemId: 'u3', earlierChatId: 's2' };
  });
  backend.override('retryReply', (input) => {
    calls.push(input);
    return { itemId: 'u3', earlierChatId: 's2' };
  });
  const store = mountApp(backend);
  return { backend, calls, store };
}

const log = () => screen.getByRole('log', { name: 'Conversation' });

describe('Edit message', () => {
  it('each user message holds it; it opens "Edited message" prefilled, offers to put back changed files, and Save and rerun sends the edit', async () => {
    const { calls } = setup();
    await screen.findByText('Two.');
    const articles = within(log()).getAllByRole('article', { name: 'You' });
    expect(articles.map((a) => within(a).getAllByRole('button').map((b) => b.textContent))).toEqual([['Edit message'], ['Edit message']]);
    fireEvent.click(within(articles[0]!).getByRole('button', { name: 'Edit message' }));
    const form = within(log()).getByRole('form', { name: 'Edit message' });
    const box = within(form).getByRole('textbox', { name: 'Edited message' }) as HTMLTextAreaElement;
    expect(box.value).toBe('first');
    expect(document.activeElement).toBe(box);
    const restore = await within(form).findByRole('checkbox');
    expect(restore.closest('div')!.textContent).toContain('First put back the file the replaced turns changed: NOTES.md (remove)');
    expect(form.textContent).not.toContain('cannot be put back');
    fireEvent.click(restore);
    fireEvent.change(box, { target: { value: 'first, edited' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Save and rerun' }));
    await waitFor(() => expect(calls).toEqual([{ sessionId: 's1', itemId: 'u1', text: 'first, edited', restoreFiles: true }]));
  });

  it('says when the replaced turns ran a command, whose effects cannot be put back', async () => {
    const { backend } = setup();
    backend.override('previewRerun', () => ({ files: [{ path: 'NOTES.md', action: 'restore', changedOutside: false }], commands: 1 }));
    await screen.findByText('Two.');
    fireEvent.click(within(within(log()).getAllByRole('article', { name: 'You' })[0]!).getByRole('button', { name: 'Edit message' }));
    const form = within(log()).getByRole('form', { name: 'Edit message' });
    expect((await within(form).findByText(/cannot be put back/)).textContent).toBe('Claude ran a command in the replaced turns: what it changed cannot be put back.');
    expect(within(form).getByRole('checkbox', { name: 'First put back the file the replaced turns changed: NOTES.md' })).toBeTruthy();
  });

  it('shows the refusal from main (stop first) in the form and keeps the text; Escape cancels', async () => {
    const { backend } = setup();
    backend.override('editMessage', () => {
      throw new WaypointCallError('busy', 'Claude is working in this chat: press Stop first, then edit a message.');
    });
    await screen.findByText('Two.');
    fireEvent.click(within(within(log()).getAllByRole('article', { name: 'You' })[1]!).getByRole('button', { name: 'Edit message' }));
    const form = within(log()).getByRole('form', { name: 'Edit message' });
    fireEvent.change(within(form).getByRole('textbox'), { target: { value: 'second, edited' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Save and rerun' }));
    expect((await within(form).findByRole('alert')).textContent).toBe('Claude is working in this chat: press Stop first, then edit a message.');
    expect((within(form).getByRole('textbox') as HTMLTextAreaElement).value).toBe('second, edited');
    fireEvent.keyDown(within(form).getByRole('textbox'), { key: 'Escape' });
    expect(within(log()).queryByRole('form')).toBeNull();
  });

  it('chat_rewound cuts the transcript from the item on and drops the plan made there; the new items follow', async () => {
    const { backend, store } = setup();
    await screen.findByText('Two.');
    expect(screen.getByRole('region', { name: 'Task plan' })).toBeTruthy();
    backend.emit({ type: 'chat_rewound', sessionId: 's1', fromItemId: 'u2', planDropped: true });
    await waitFor(() => expect(screen.queryByText('Two.')).toBeNull());
    expect(screen.queryByRole('region', { name: 'Task plan' })).toBeNull();
    backend.emit({ type: 'transcript_item', sessionId: 's1', item: { id: 'r1', kind: 'rerun', how: 'edit', earlier: { chatId: 's1', title: 'Chat (earlier version)' }, changed: ['NOTES.md'], createdAt: T } });
    const note = await screen.findByRole('note');
    expect(note.textContent).toContain('Edited and rerun from here.');
    expect(note.textContent).toContain('What it replaced is kept in “Chat (earlier version)”.');
    expect(note.textContent).toContain('Left as the replaced turns changed them: NOTES.md');
    expect(store.getState().transcripts.s1!.items.map((i) => i.id)).toEqual(['u1', 'a1', 'r1']);
  });
});

describe('Retry reply', () => {
  it('is on the last reply only, while Claude is idle, and asks main to retry', async () => {
    const { calls } = setup();
    await screen.findByText('Two.');
    const replies = within(log()).getAllByRole('article', { name: 'Claude' });
    expect(within(replies[0]!).queryByRole('button', { name: 'Retry reply' })).toBeNull();
    fireEvent.click(within(replies[1]!).getByRole('button', { name: 'Retry reply' }));
    // The turn it replaces changed a file: first the offer to put it back.
    const offer = await within(replies[1]!).findByRole('group', { name: 'Retry reply' });
    const restore = within(offer).getByRole('checkbox', { name: 'First put back the file the replaced turn changed: NOTES.md (remove)' });
    fireEvent.click(restore);
    fireEvent.click(within(offer).getByRole('button', { name: 'Retry reply' }));
    await waitFor(() => expect(calls).toEqual([{ sessionId: 's1', restoreFiles: true }]));
  });

  it('retries at once when the turn changed no file and ran no command', async () => {
    const { backend, calls } = setup();
    backend.override('previewRerun', () => ({ files: [], commands: 0 }));
    await screen.findByText('Two.');
    fireEvent.click(within(log()).getByRole('button', { name: 'Retry reply' }));
    await waitFor(() => expect(calls).toEqual([{ sessionId: 's1', restoreFiles: false }]));
    expect(screen.queryByRole('group', { name: 'Retry reply' })).toBeNull();
  });

  it('says truthfully that commands cannot be put back; Cancel closes the offer and sends nothing', async () => {
    const { backend, calls } = setup();
    backend.override('previewRerun', () => ({ files: [], commands: 2 }));
    await screen.findByText('Two.');
    fireEvent.click(within(log()).getByRole('button', { name: 'Retry reply' }));
    const offer = await screen.findByRole('group', { name: 'Retry reply' });
    expect(offer.textContent).toContain('Claude ran 2 commands in the replaced turn: what they changed cannot be put back.');
    expect(within(offer).queryByRole('checkbox')).toBeNull();
    fireEvent.click(within(offer).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('group', { name: 'Retry reply' })).toBeNull());
    expect(calls).toEqual([]);
  });

  it('is not offered while Claude works', async () => {
    setup({ status: 'running', phase: 'streaming' });
    await screen.findByText('Two.');
    expect(screen.queryByRole('button', { name: 'Retry reply' })).toBeNull();
  });
});
