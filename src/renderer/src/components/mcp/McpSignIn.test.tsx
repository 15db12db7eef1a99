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

const signedOut: McpServerState = { name: 'remote', transport: 'http', status: 'sign_in', signedOut: true };
const PAGE = 'http://127.0.0.1:4000/authorize?client_id=abc&state=xyz';

/** Opens Settings; the one row of its MCP servers list. */
async function mcpRow() {
  fireEvent.click(await screen.findByRole('button', { name: 'Settings' }));
  const list = await within(screen.getByRole('dialog', { name: 'Settings' })).findByRole('list', { name: 'MCP server status' });
  return () => within(list).getByRole('listitem');
}

describe("Settings' sign-in of a remote MCP server", () => {
  it('shows "Signed out" with "Sign in"; the button asks main; the page comes as "Open sign-in page"; a refusal is said', async () => {
    const backend = new MemoryBackend();
    backend.addChat('s1', 'Chat');
    backend.mcpServers = [signedOut, { name: 'local', transport: 'stdio', status: 'ready', toolCount: 1, tools: ['x'] }];
    mountApp(backend);
    const list = await (async () => {
      fireEvent.click(await screen.findByRole('button', { name: 'Settings' }));
      return within(screen.getByRole('dialog', { name: 'Settings' })).findByRole('list', { name: 'MCP server status' });
    })();
    const row = () => within(list).getAllByRole('listitem').find((li) => li.textContent?.startsWith('remote'))!;
    expect(row().textContent).toContain('Signed out');
    // Only the remote server that needs it offers a sign-in.
    expect(within(list).getAllByRole('button', { name: 'Sign in' })).toHaveLength(1);
    fireEvent.click(within(row()).getByRole('button', { name: 'Sign in' }));
    await waitFor(() => expect(backend.log.filter((c) => c.name === 'signInMcpServer')).toEqual([{ name: 'signInMcpServer', input: { name: 'remote' } }]));
    expect(within(row()).queryByRole('link', { name: 'Open sign-in page' })).toBeNull();

    act(() => backend.emit({ type: 'mcp_state', servers: [{ ...signedOut, signInUrl: PAGE }] }));
    const link = within(row()).getByRole('link', { name: 'Open sign-in page' });
    expect(link.getAttribute('href')).toBe(PAGE);
    expect(link.getAttribute('target')).toBe('_blank');
    expect(link.getAttribute('rel')).toContain('noopener');

    act(() => backend.emit({ type: 'mcp_state', servers: [{ ...signedOut, error: 'The server refused the sign-in (access_denied). Nothing was stored.' }] }));
    expect(within(row()).getByRole('alert').textContent).toBe('The server refused the sign-in (access_denied). Nothing was stored.');
    expect(within(row()).queryByRole('link', { name: 'Open sign-in page' })).toBeNull();

    act(() => backend.emit({ type: 'mcp_state', servers: [{ name: 'remote', transport: 'http', status: 'ready', toolCount: 7, tools: [] }] }));
    expect(row().textContent).toContain('ready, 7 tools');
    expect(within(row()).queryByRole('button', { name: 'Sign in' })).toBeNull();
  });

  it('a server never signed in says "Sign-in needed"', async () => {
    const backend = new MemoryBackend();
    backend.addChat('s1', 'Chat');
    backend.mcpServers = [{ ...signedOut, signedOut: false }];
    mountApp(backend);
    const row = await mcpRow();
    expect(row().textContent).toContain('Sign-in needed');
    expect(within(row()).getByRole('button', { name: 'Sign in' })).toBeTruthy();
  });

  it('in the desktop app the browser was opened by main: no link, a line saying where to finish', async () => {
    const backend = new MemoryBackend();
    backend.override('getAppInfo', () => ({ shell: 'electron', version: 't', workspace: null }));
    backend.addChat('s1', 'Chat');
    backend.mcpServers = [{ ...signedOut, signInUrl: PAGE }];
    mountApp(backend);
    const row = await mcpRow();
    await waitFor(() => expect(row().textContent).toContain('Finish signing in in your browser.'));
    expect(within(row()).queryByRole('link', { name: 'Open sign-in page' })).toBeNull();
  });
});
