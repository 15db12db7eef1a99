// @vitest-environment happy-dom
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MemoryBackend } from '../../test-support/memory-backend';
import { mountApp, unmountApps } from '../../test-support/mount-app';

beforeEach(() => localStorage.clear());
afterEach(unmountApps);

// The form inside Settings against the in-memory main (which validates calls like the real
// router): what reaches setSettings, what the JSON editor then shows, errors beside fields.
async function openSettings() {
  const backend = new MemoryBackend();
  backend.view = { ...backend.view, settings: { ...backend.view.settings, mcpServers: { fs: { command: 'npx', args: ['-y', 'server fs'], env: { TOKEN: 'sk-test-1' } } } } };
  backend.mcpServers = [{ name: 'fs', transport: 'stdio', status: 'ready', toolCount: 2, tools: ['read', 'list'] }];
  backend.addChat('s1', 'Chat');
  mountApp(backend);
  fireEvent.click(await screen.findByRole('button', { name: 'Settings' }));
  const dialog = screen.getByRole('dialog', { name: 'Settings' });
  await within(dialog).findByRole('button', { name: 'Edit server fs' });
  return { backend, dialog, json: () => (within(dialog).getByLabelText('MCP servers JSON') as HTMLTextAreaElement).value };
}
const saves = (backend: MemoryBackend) => backend.log.filter((c) => c.name === 'setSettings');

describe('MCP server form in Settings', () => {
  it('adds a server: a bad environment line is refused beside its field, then it saves at once and the JSON shows it', async () => {
    const { backend, dialog, json } = await openSettings();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add MCP server' }));
    const name = within(dialog).getByRole('textbox', { name: 'Server name' });
    expect(document.activeElement).toBe(name);
    fireEvent.change(name, { target: { value: 'git' } });
    fireEvent.change(within(dialog).getByRole('textbox', { name: 'Command' }), { target: { value: 'uvx' } });
    fireEvent.change(within(dialog).getByRole('textbox', { name: 'Arguments' }), { target: { value: 'mcp-server-git\n--repository\n/home/me/my repo' } });
    const env = within(dialog).getByRole('textbox', { name: 'Environment' });
    fireEvent.change(env, { target: { value: 'GIT_TOKEN=abc\nexport X' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save server' }));

    const error = await within(dialog).findByText(/^Environment line 2: write it as NAME=value/);
    expect(env.getAttribute('aria-invalid')).toBe('true');
    expect(env.getAttribute('aria-describedby')?.split(' ')).toContain(error.id);
    expect(document.activeElement).toBe(env);
    expect(saves(backend)).toEqual([]);

    fireEvent.change(env, { target: { value: 'GIT_TOKEN=abc' } });
    expect(env.getAttribute('aria-invalid')).toBeNull();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save server' }));
    await waitFor(() => expect(within(dialog).queryByRole('button', { name: 'Save server' })).toBeNull());
    const added = { command: 'uvx', args: ['mcp-server-git', '--repository', '/home/me/my repo'], env: { GIT_TOKEN: 'abc' } };
    expect(saves(backend).map((c) => c.input)).toEqual([{ patch: { mcpServers: { fs: { command: 'npx', args: ['-y', 'server fs'], env: { TOKEN: 'sk-test-1' } }, git: added } } }]);
    expect(JSON.parse(json()).mcpServers.git).toEqual(added);
    expect(document.activeElement).toBe(within(dialog).getByRole('button', { name: 'Add MCP server' }));
  });

  it('edits from the JSON as typed, renames, refuses a taken or unusable name, and removes after asking', async () => {
    const { backend, dialog, json } = await openSettings();
    // A change in the JSON editor is what the form opens with.
    fireEvent.change(within(dialog).getByLabelText('MCP servers JSON'), { target: { value: JSON.stringify({ mcpServers: { fs: { command: 'node', args: ['fs.js'] }, web: { url: 'https://example.com/mcp' } } }) } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Edit server fs' }));
    const form = within(dialog).getByRole('group', { name: 'Edit server fs' });
    expect((within(form).getByRole('textbox', { name: 'Command' }) as HTMLInputElement).value).toBe('node');
    const name = within(form).getByRole('textbox', { name: 'Server name' });
    for (const [value, words] of [['web', /already a server named "web"/], ['my fs', /letters, digits, _ and -/]] as const) {
      fireEvent.change(name, { target: { value } });
      fireEvent.click(within(form).getByRole('button', { name: 'Save server' }));
      await waitFor(() => expect(name.getAttribute('aria-invalid')).toBe('true'));
      expect(document.getElementById(name.getAttribute('aria-describedby')!.split(' ')[1]!)?.textContent).toMatch(words);
    }
    expect(saves(backend)).toEqual([]);
    fireEvent.change(name, { target: { value: 'files' } });
    fireEvent.keyDown(name, { key: 'Enter' }); // Enter saves the server, not the whole dialog
    await waitFor(() => expect(saves(backend)).toHaveLength(1));
    // The JSON shows what was saved once the save has answered (the call is logged before that).
    await waitFor(() => expect(Object.keys(JSON.parse(json()).mcpServers)).toEqual(['files', 'web']));
    expect(screen.getByRole('dialog', { name: 'Settings' })).toBeTruthy();

    backend.mcpServers = [{ name: 'files', transport: 'stdio', status: 'ready', toolCount: 2, tools: ['read', 'list'] }];
    backend.emit({ type: 'mcp_state', servers: backend.mcpServers });
    fireEvent.click(await within(dialog).findByRole('button', { name: 'Remove server files' }));
    const ask = screen.getByRole('alertdialog', { name: 'Remove server files?' });
    fireEvent.click(within(ask).getByRole('button', { name: 'Cancel' }));
    expect(saves(backend)).toHaveLength(1);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Remove server files' }));
    fireEvent.click(within(screen.getByRole('alertdialog', { name: 'Remove server files?' })).getByRole('button', { name: 'Remove' }));
    await waitFor(() => expect(saves(backend)).toHaveLength(2));
    await waitFor(() => expect(JSON.parse(json()).mcpServers).toEqual({ web: { url: 'https://example.com/mcp' } }));
  });
});
