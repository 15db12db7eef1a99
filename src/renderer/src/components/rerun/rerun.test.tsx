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
    return { itemId: 'u3' };
  });
  backend.override('retryReply', (input) => {
    calls.push(input);
    return { itemId: 'u3' };
  });
  const store = mountApp(backend);
  return { backend, calls, store };
}

const log = () => screen.getByRole('log', { name: 'Conversation' });

function versioned(runState: { status: 'idle' } | { status: 'running'; phase: 'streaming' } = { status: 'idle' }) {
  const backend = new MemoryBackend();
  const edited: TranscriptItem = { ...user('u2', 'second, edited'), version: { group: 'u0', index: 1, count: 2 } } as TranscriptItem;
  const retried: TranscriptItem = { ...user('u3', 'third'), replies: { group: 'u3:reply', index: 0, count: 3 } } as TranscriptItem;
  backend.addChat('s1', 'Chat', { transcript: [user('u1', 'first'), reply('a1', 'One.'), edited, reply('a2', 'Two.'), retried, reply('a3', 'Three.')], runState });
  const calls: unknown[] = [];
  backend.override('showVersion', (input) => {
    calls.push(input);
    return { itemId: input.itemId };
  });
  mountApp(backend);
  return { backend, calls };
}

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
    // Versions in place: nothing goes to the chat list, the one replaced stays a version of the message.
    expect(box.getAttribute('aria-describedby')!.split(' ').map((id) => document.getElementById(id)!.textContent)).toEqual([
      'This message and everything after it are replaced by a new version of it. The version shown now is kept: "Previous version" shows it again.',
    ]);
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

describe('Versions', () => {
  it('an edited message shows "N/M" with "Previous version" / "Next version"; a retried reply shows its own on the reply; each asks main for that version', async () => {
    const { calls } = versioned();
    await screen.findByText('Three.');
    const [, edited] = within(log()).getAllByRole('article', { name: 'You' });
    const messageVersions = within(edited!).getByRole('group', { name: 'Versions of this message' });
    expect(messageVersions.textContent).toContain('2/2');
    expect((within(messageVersions).getByRole('button', { name: 'Next version' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(within(messageVersions).getByRole('button', { name: 'Previous version' }));
    await waitFor(() => expect(calls).toEqual([{ sessionId: 's1', itemId: 'u2', of: 'message', index: 0 }]));

    const replies = within(log()).getAllByRole('article', { name: 'Claude' });
    expect(within(replies[1]!).queryByRole('group')).toBeNull();
    const replyVersions = within(replies[2]!).getByRole('group', { name: 'Versions of this reply' });
    expect(replyVersions.textContent).toContain('1/3');
    expect((within(replyVersions).getByRole('button', { name: 'Previous version' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(within(replyVersions).getByRole('button', { name: 'Next version' }));
    await waitFor(() => expect(calls).toHaveLength(2));
    expect(calls[1]).toEqual({ sessionId: 's1', itemId: 'u3', of: 'reply', index: 1 });
    // A message never edited has no versions to show.
    expect(within(within(log()).getAllByRole('article', { name: 'You' })[0]!).queryByRole('group')).toBeNull();
  });

  it('cannot be switched while Claude works (the run goes on in its version): the buttons are off and say why', async () => {
    versioned({ status: 'running', phase: 'streaming' });
    await screen.findByText('Three.');
    const buttons = [...within(log()).getAllByRole('button', { name: 'Previous version' }), ...within(log()).getAllByRole('button', { name: 'Next version' })];
    expect(buttons).toHaveLength(4);
    for (const button of buttons) {
      expect((button as HTMLButtonElement).disabled).toBe(true);
      expect(button.getAttribute('title')).toBe('Claude is working: stop it first to see another version.');
    }
  });

  it('a refusal from main is shown', async () => {
    const { backend } = versioned();
    backend.override('showVersion', () => {
      throw new WaypointCallError('busy', 'Claude is working in this chat: press Stop first, then switch versions.');
    });
    await screen.findByText('Three.');
    fireEvent.click(within(log()).getAllByRole('button', { name: 'Previous version' })[0]!);
    expect((await screen.findByText('Claude is working in this chat: press Stop first, then switch versions.')).textContent).toBeTruthy();
  });
});
