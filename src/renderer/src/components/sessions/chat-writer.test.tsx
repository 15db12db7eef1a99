// @vitest-environment happy-dom
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { ChatWriter } from '../../../../shared/chat-writer';
import { WaypointCallError } from '../../../../shared/contract';
import { MemoryBackend } from '../../test-support/memory-backend';
import { mountApp, unmountApps } from '../../test-support/mount-app';

afterEach(unmountApps);

const laptop: ChatWriter = { holder: 'the Waypoint app', host: 'laptop.local', pid: 4242, since: '2026-11-20T08:00:00.000Z', token: 'laptop-lock', state: 'other_host' };

function lockedBackend(writer: ChatWriter): MemoryBackend {
  const backend = new MemoryBackend();
  backend.addChat('a', 'Shared chat');
  let held: ChatWriter | null = writer;
  backend.override('sendMessage', () => {
    if (held) throw new WaypointCallError('busy', `This chat is being written by ${held.holder}, pid ${held.pid} on ${held.host}.`);
    return { itemId: 'sent' };
  });
  backend.override('getChatWriter', () => ({ writer: held }));
  backend.override('takeOverChat', () => {
    held = null;
    return { takenOver: true };
  });
  return backend;
}

/** A held chat is known as held when it opens: the notice comes without a Send. */
async function openHeld(): Promise<HTMLElement> {
  return screen.findByRole('region', { name: 'Written by another process' });
}

describe('a chat another process writes', () => {
  it('says so as soon as the chat opens, with the composer disabled and saying why; once the other process lets go, the composer comes back', async () => {
    const backend = lockedBackend({ ...laptop, holder: 'waypoint run', host: 'this-computer', state: 'running' });
    let held = true;
    backend.override('getChatWriter', () => ({ writer: held ? { ...laptop, holder: 'waypoint run', host: 'this-computer', state: 'running' } : null }));
    mountApp(backend);
    const notice = await screen.findByRole('region', { name: 'Written by another process' });
    expect(notice.textContent).toContain('This chat is being written by waypoint run');
    const box = screen.getByRole('textbox', { name: 'Message' });
    await waitFor(() => expect((box as HTMLTextAreaElement).disabled).toBe(true));
    expect(box.getAttribute('aria-describedby')?.split(' ').map((id) => document.getElementById(id)?.textContent).join(' ')).toContain(
      'You can’t write here while waypoint run writes this chat.',
    );
    expect((screen.getByRole('button', { name: 'Send' }) as HTMLButtonElement).disabled).toBe(true);
    expect(backend.log.some((c) => c.name === 'sendMessage')).toBe(false);

    held = false;
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Written by another process' })).toBeNull(), { timeout: 8000 });
    expect((screen.getByRole('textbox', { name: 'Message' }) as HTMLTextAreaElement).disabled).toBe(false);
  });

  it('says who writes it and takes it over only after the confirmation, naming the lock shown', async () => {
    const backend = lockedBackend(laptop);
    mountApp(backend);
    const notice = await openHeld();
    expect(notice.textContent).toContain('This chat is being written by the Waypoint app (pid 4242 on laptop.local)');
    fireEvent.click(within(notice).getByRole('button', { name: 'Take over' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Take over this chat?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(backend.log.some((c) => c.name === 'takeOverChat')).toBe(false);

    fireEvent.click(within(notice).getByRole('button', { name: 'Take over' }));
    fireEvent.click(within(screen.getByRole('alertdialog', { name: 'Take over this chat?' })).getByRole('button', { name: 'Take over' }));
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Written by another process' })).toBeNull());
    expect(backend.log.find((c) => c.name === 'takeOverChat')?.input).toEqual({ sessionId: 'a', token: 'laptop-lock' });
  });

  it('a process verifiably running here is named, and no takeover is offered', async () => {
    mountApp(lockedBackend({ ...laptop, host: 'this-computer', state: 'running' }));
    const notice = await openHeld();
    expect(notice.textContent).toContain('Wait until it finishes, or stop it there.');
    expect(within(notice).queryByRole('button', { name: 'Take over' })).toBeNull();
  });

  it('a Send refused because another process took the chat meanwhile shows who, and one that goes through clears it', async () => {
    const backend = new MemoryBackend();
    backend.addChat('a', 'Shared chat');
    let held: ChatWriter | null = null;
    backend.override('getChatWriter', () => ({ writer: held }));
    mountApp(backend);
    const box = await screen.findByRole('textbox', { name: 'Message' });
    held = { ...laptop, host: 'this-computer', state: 'running' };
    backend.override('sendMessage', () => {
      throw new WaypointCallError('busy', 'This chat is being written by the Waypoint app, pid 4242 on this-computer.');
    });
    fireEvent.change(box, { target: { value: 'hello' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    await screen.findByRole('region', { name: 'Written by another process' });
    expect((screen.getByRole('textbox', { name: 'Message' }) as HTMLTextAreaElement).value).toBe('hello');
    // The other process lets go: the window learns it by itself, and a Send goes through.
    held = null;
    backend.override('sendMessage', () => ({ itemId: 'sent' }));
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Written by another process' })).toBeNull(), { timeout: 8000 });
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(backend.log.filter((c) => c.name === 'sendMessage')).toHaveLength(2));
  });

  it('a Stop that stopped nothing over there says why, instead of looking as if it worked', async () => {
    const backend = new MemoryBackend();
    backend.addChat('a', 'Headless run');
    backend.override('stop', () => ({ stopped: false, reason: 'The process that writes this chat did not answer, so nothing was stopped.' }));
    mountApp(backend);
    await screen.findByRole('textbox', { name: 'Message' });
    act(() => backend.emit({ type: 'run_state', sessionId: 'a', state: { status: 'running', phase: 'streaming' } }));
    fireEvent.click(await screen.findByRole('button', { name: 'Stop' }));
    expect((await screen.findByRole('alert')).textContent).toContain('did not answer, so nothing was stopped');
  });
});
