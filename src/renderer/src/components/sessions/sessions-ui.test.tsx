// @vitest-environment happy-dom
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { MemoryBackend } from '../../test-support/memory-backend';
import { mountApp, unmountApps } from '../../test-support/mount-app';

afterEach(unmountApps);

const mount = mountApp;

describe('sessions UI', () => {
  it('says once that damaged settings were replaced by defaults, with the backup path', async () => {
    const backend = new MemoryBackend();
    backend.addChat('a', 'Chat');
    backend.override('getAppInfo', () => ({ shell: 'web', version: 't', workspace: null, settingsReset: { reason: 'it is not valid JSON', backupPath: '/data/settings.json.bak-1' } }));
    mount(backend);
    const alert = await screen.findByText(/started with default settings/);
    expect(alert.textContent).toContain('/data/settings.json.bak-1');
    fireEvent.click(screen.getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByText(/started with default settings/)).toBeNull();
  });

  it('shows the running cost in the header and Resume for an interrupted chat, which retries the run', async () => {
    const backend = new MemoryBackend();
    backend.addChat('a', 'Long task');
    const chat = backend.chats.get('a')!;
    chat.summary = { ...chat.summary, interrupted: true, usage: { inputTokens: 1, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0, costUsd: 0.0449 } };
    backend.override('retryRun', () => ({ started: true }));
    mount(backend);
    expect((await screen.findByText('$0.04')).closest('header')).toBeTruthy();
    fireEvent.click(await screen.findByRole('button', { name: 'Resume' }));
    await waitFor(() => expect(backend.log.some((c) => c.name === 'retryRun')).toBe(true));
    act(() => backend.emit({ type: 'session_updated', session: { ...chat.summary, interrupted: false } }));
    expect(screen.queryByRole('button', { name: 'Resume' })).toBeNull();
  });

  it('renames inline, deletes only after confirmation, and searches', async () => {
    const backend = new MemoryBackend();
    backend.addChat('a', 'Alpha', { updatedAt: '2025-01-03T00:00:00.000Z' });
    backend.addChat('b', 'Beta', { updatedAt: '2025-01-02T00:00:00.000Z' });
    backend.override('renameSession', ({ sessionId, title }) => ({ ...backend.chats.get(sessionId)!.summary, title }));
    backend.override('deleteSession', () => ({ deleted: true }));
    backend.override('searchSessions', () => ({ results: [{ session: backend.chats.get('b')!.summary, snippet: '…the beta snippet…' }] }));
    mount(backend);
    const chats = await screen.findByRole('navigation', { name: 'Chats' });
    await within(chats).findByRole('button', { name: 'Beta' });
    const beta = within(chats).getByRole('button', { name: 'Beta' }).closest('li')!;

    fireEvent.click(within(beta).getByRole('button', { name: 'Rename chat' }));
    const box = within(chats).getByRole('textbox', { name: 'Chat title' });
    fireEvent.change(box, { target: { value: 'Gamma' } });
    fireEvent.keyDown(box, { key: 'Enter' });
    await within(chats).findByRole('button', { name: 'Gamma' });
    expect(backend.log.find((c) => c.name === 'renameSession')?.input).toEqual({ sessionId: 'b', title: 'Gamma' });

    const alpha = within(chats).getByRole('button', { name: 'Alpha' }).closest('li')!;
    fireEvent.click(within(alpha).getByRole('button', { name: 'Delete chat' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Delete chat?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(backend.log.some((c) => c.name === 'deleteSession')).toBe(false);
    fireEvent.click(within(alpha).getByRole('button', { name: 'Delete chat' }));
    fireEvent.click(within(screen.getByRole('alertdialog', { name: 'Delete chat?' })).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(within(chats).queryByRole('button', { name: 'Alpha' })).toBeNull());
    expect(backend.log.find((c) => c.name === 'deleteSession')?.input).toEqual({ sessionId: 'a' });

    fireEvent.change(within(chats).getByRole('searchbox', { name: 'Search chats' }), { target: { value: 'beta' } });
    const results = await within(chats).findByRole('list', { name: 'Search results' });
    expect(results.textContent).toContain('…the beta snippet…');
  });
});
