// @vitest-environment happy-dom
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { McpServerState } from '../../../../shared/mcp';
import { MemoryBackend } from '../../test-support/memory-backend';
import { mountApp, unmountApps } from '../../test-support/mount-app';

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
});
afterEach(unmountApps);

const missing: McpServerState = { name: 'files', transport: 'stdio', status: 'failed', error: 'Could not start: spawn npx-nope ENOENT', stderrTail: '' };
const SENTENCE = 'The MCP server "files" could not start: the command "npx-nope" was not found. Install it, or fix "command" in its settings.';

describe('an MCP server that fails', () => {
  it('is told in the app, in words, even when it failed before the page connected; "Review MCP servers" goes to Settings', async () => {
    const backend = new MemoryBackend();
    backend.addChat('s1', 'Chat');
    backend.mcpServers = [missing];
    mountApp(backend);
    const notice = await screen.findByRole('alert');
    expect(notice.textContent).toContain(SENTENCE);
    expect(notice.textContent).not.toContain('ENOENT');
    fireEvent.click(within(notice).getByRole('button', { name: 'Review MCP servers' }));
    const dialog = screen.getByRole('dialog', { name: 'Settings' });
    await waitFor(() => expect(document.activeElement).toBe(within(dialog).getByLabelText('MCP servers JSON')));
    await waitFor(() => expect(within(dialog).getByRole('list', { name: 'MCP server status' }).textContent).toContain('the command "npx-nope" was not found'));
    expect(screen.queryByText(SENTENCE)).toBeNull();
  });

  it('is told once: dismissed, it stays dismissed after a reload; a new failure is told', async () => {
    const backend = new MemoryBackend();
    backend.addChat('s1', 'Chat');
    mountApp(backend);
    await screen.findByRole('textbox', { name: 'Message' });
    expect(screen.queryByRole('alert')).toBeNull();
    act(() => backend.emit({ type: 'mcp_state', servers: [{ name: 'files', transport: 'stdio', status: 'starting' }] }));
    expect(screen.queryByRole('alert')).toBeNull();
    act(() => backend.emit({ type: 'mcp_state', servers: [missing] }));
    fireEvent.click(within(screen.getByRole('alert')).getByRole('button', { name: 'Dismiss MCP notice' }));
    expect(screen.queryByRole('alert')).toBeNull();
    act(() => backend.emit({ type: 'mcp_state', servers: [missing] })); // the same failure again
    expect(screen.queryByRole('alert')).toBeNull();

    unmountApps();
    backend.mcpServers = [missing];
    mountApp(backend);
    await screen.findByRole('textbox', { name: 'Message' });
    expect(screen.queryByRole('alert')).toBeNull();
    const crashed: McpServerState = { ...missing, error: 'The server stopped (its process exited or the connection closed).' };
    act(() => backend.emit({ type: 'mcp_state', servers: [crashed] }));
    expect(screen.getByRole('alert').textContent).toContain('The MCP server "files" stopped while starting: its process exited.');
  });
});
