// @vitest-environment happy-dom
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MAX_MESSAGE_CHARS } from '../../../shared/contract';
import { plan, step } from '../test-support/fixtures';
import { MemoryBackend } from '../test-support/memory-backend';
import { mountApp, unmountApps } from '../test-support/mount-app';

beforeEach(() => localStorage.clear());
afterEach(unmountApps);

const mount = mountApp;

describe('App', () => {
  it('welcomes a user without an API key and starts the chat after "Save and start"', async () => {
    const backend = new MemoryBackend({ hasApiKey: false });
    mount(backend);
    await screen.findByRole('heading', { name: 'Welcome to Waypoint' });
    expect(screen.queryByRole('textbox', { name: 'Message' })).toBeNull();
    fireEvent.change(screen.getByLabelText('API key'), { target: { value: 'sk-ant-test-123' } });
    await waitFor(() => expect(screen.getByRole('option', { name: /Claude Haiku 4\.5/ })).toBeTruthy());
    fireEvent.change(screen.getByLabelText('Model'), { target: { value: 'claude-haiku-4-5' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save and start' }));
    await screen.findByRole('textbox', { name: 'Message' });
    expect(backend.view.apiKey).toEqual({ hasApiKey: true, source: 'settings' });
    expect(backend.view.settings.model).toBe('claude-haiku-4-5');
  });

  it('says it cannot reach the backend instead of showing a blank screen', async () => {
    const backend = new MemoryBackend();
    backend.override('getSettings', () => {
      throw new Error('ECONNREFUSED');
    });
    mount(backend);
    expect((await screen.findByRole('alert')).textContent).toBe("Can't reach Waypoint's backend — retrying…");
  });

  it('shows each chat with its own plan when switching chats', async () => {
    const backend = new MemoryBackend();
    backend.addChat('a', 'Refactor parser', { updatedAt: '2025-01-03T00:00:00.000Z', plan: plan([step(1, 'Parse A', 'in_progress')]) });
    backend.addChat('b', 'Write docs', { updatedAt: '2025-01-02T00:00:00.000Z', plan: plan([step(1, 'Docs B')]) });
    mount(backend);
    const region = await screen.findByRole('region', { name: 'Task plan' });
    expect(within(region).getByRole('listitem').textContent).toContain('Parse A');
    const chats = screen.getByRole('navigation', { name: 'Chats' });
    expect(within(chats).getByRole('button', { name: 'Refactor parser' }).getAttribute('aria-current')).toBe('page');
    fireEvent.click(within(chats).getByRole('button', { name: 'Write docs' }));
    await waitFor(() =>
      expect(within(screen.getByRole('region', { name: 'Task plan' })).getByRole('listitem').textContent).toContain('Docs B'),
    );
    expect(within(chats).getByRole('button', { name: 'Write docs' }).getAttribute('aria-current')).toBe('page');
  });

  it('streams a reply into the conversation and shows Stop while running', async () => {
    const backend = new MemoryBackend();
    backend.addChat('s1', 'Chat');
    mount(backend);
    const log = await screen.findByRole('log', { name: 'Conversation' });
    act(() => {
      backend.emit({ type: 'run_state', sessionId: 's1', state: { status: 'running', phase: 'streaming' } });
      backend.emit({ type: 'transcript_item', sessionId: 's1', item: { id: 'm1', kind: 'assistant', text: '', status: 'streaming', createdAt: '' } });
      backend.emit({ type: 'message_delta', sessionId: 's1', itemId: 'm1', text: '## Plan\n\nStep **one**' });
    });
    // The virtualised row shows once it is measured (fake-layout reports it a moment later).
    expect(await within(log).findByRole('heading', { name: 'Plan' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Stop' })).toBeTruthy();
    act(() => {
      backend.emit({ type: 'message_done', sessionId: 's1', itemId: 'm1', stopReason: 'end_turn' });
      backend.emit({ type: 'run_state', sessionId: 's1', state: { status: 'idle' } });
    });
    expect(screen.queryByRole('button', { name: 'Stop' })).toBeNull();
    expect(screen.getByRole('status').textContent).toBe('Claude replied.');
  });

  it('keeps an over-long message in the box and shows main\'s refusal', async () => {
    const backend = new MemoryBackend();
    backend.addChat('s1', 'Chat');
    mount(backend);
    const box = (await screen.findByRole('textbox', { name: 'Message' })) as HTMLTextAreaElement;
    const long = 'x'.repeat(MAX_MESSAGE_CHARS + 1);
    fireEvent.change(box, { target: { value: long } });
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    expect((await screen.findByRole('alert')).textContent).toMatch(/Message is too long/);
    expect(box.value).toBe(long);
  });

  it('opens Settings as a modal dialog, saves changes, and Escape closes it', async () => {
    const backend = new MemoryBackend();
    backend.addChat('s1', 'Chat');
    mount(backend);
    const opener = await screen.findByRole('button', { name: 'Settings' });
    opener.focus();
    fireEvent.click(opener);
    const dialog = screen.getByRole('dialog', { name: 'Settings' });
    expect(dialog.getAttribute('aria-modal')).toBe('true');
    expect(within(dialog).getByText(/saved in Settings/)).toBeTruthy();
    expect((within(dialog).getByLabelText('API key') as HTMLInputElement).type).toBe('password');
    fireEvent.click(within(dialog).getByLabelText('Agentic mode'));
    fireEvent.change(within(dialog).getByLabelText('Planning style'), { target: { value: 'wbs' } });
    const retries = within(dialog).getByLabelText('Max retries') as HTMLInputElement;
    expect([retries.min, retries.max, retries.step]).toEqual(['0', '10', '1']);
    fireEvent.change(retries, { target: { value: '11' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    // Said in words next to the field, which takes the focus (so it is in view); nothing is sent.
    expect((await within(dialog).findByRole('alert')).textContent).toBe("Max retries can't be more than 10: enter a number from 0 to 10.");
    expect(retries.getAttribute('aria-invalid')).toBe('true');
    expect(retries.getAttribute('aria-describedby')).toContain(within(dialog).getByRole('alert').id);
    expect(document.activeElement).toBe(retries);
    expect(backend.log.some((c) => c.name === 'setSettings')).toBe(false);
    expect(backend.view.settings.maxRetries).toBe(2);

    fireEvent.change(within(dialog).getByLabelText('Max retries'), { target: { value: '3' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(backend.view.settings).toMatchObject({ maxRetries: 3, planningStyle: 'wbs', agenticMode: false });
    expect(document.activeElement).toBe(opener);

    fireEvent.click(opener);
    fireEvent.keyDown(screen.getByRole('dialog', { name: 'Settings' }), { key: 'Escape' });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });
});
