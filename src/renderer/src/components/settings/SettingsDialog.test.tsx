// @vitest-environment happy-dom
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WaypointCallError } from '../../../../shared/contract';
import { MemoryBackend } from '../../test-support/memory-backend';
import { mountApp, unmountApps } from '../../test-support/mount-app';

beforeEach(() => localStorage.clear());
afterEach(unmountApps);

async function openSettings(backend = new MemoryBackend()) {
  backend.addChat('s1', 'Chat');
  mountApp(backend);
  fireEvent.click(await screen.findByRole('button', { name: 'Settings' }));
  return { backend, dialog: screen.getByRole('dialog', { name: 'Settings' }) };
}

const theme = () => document.documentElement.dataset.theme;

describe('Settings', () => {
  it('applies the theme at once while it is picked; Cancel goes back, Save keeps it', async () => {
    const { backend, dialog } = await openSettings();
    expect(theme()).toBe('system');
    fireEvent.change(within(dialog).getByLabelText('Theme'), { target: { value: 'dark' } });
    await waitFor(() => expect(theme()).toBe('dark'));
    expect(backend.log.some((c) => c.name === 'setSettings')).toBe(false);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(theme()).toBe('system'));

    fireEvent.click(screen.getByRole('button', { name: 'Settings' }));
    const again = screen.getByRole('dialog', { name: 'Settings' });
    fireEvent.change(within(again).getByLabelText('Theme'), { target: { value: 'light' } });
    await waitFor(() => expect(theme()).toBe('light'));
    fireEvent.click(within(again).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(theme()).toBe('light');
    expect(backend.view.settings.theme).toBe('light');
  });

  it('shows each number field its limits, and on Save an error in words that then follows the typing', async () => {
    const { dialog } = await openSettings();
    const delay = within(dialog).getByLabelText('Retry delay (ms)') as HTMLInputElement;
    expect([delay.min, delay.max, delay.step]).toEqual(['0', '60000', '100']);
    expect(delay.getAttribute('aria-describedby')?.split(' ').map((id) => document.getElementById(id)?.textContent)).toEqual(['From 0 to 60,000 ms.']);
    fireEvent.change(delay, { target: { value: '-1' } });
    expect(within(dialog).queryByRole('alert')).toBeNull(); // not while typing
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    const error = await within(dialog).findByRole('alert');
    expect(error.textContent).toBe("Retry delay can't be less than 0: enter a number from 0 to 60,000.");
    expect(delay.getAttribute('aria-invalid')).toBe('true');
    fireEvent.change(delay, { target: { value: '250' } });
    expect(within(dialog).queryByRole('alert')).toBeNull();
    expect(delay.getAttribute('aria-invalid')).toBeNull();
  });

  it('"Runs at once" is 4 by default, refuses 0 and 17 in the field in words and saves nothing, and saves 2', async () => {
    const { backend, dialog } = await openSettings();
    const runs = within(dialog).getByLabelText('Runs at once') as HTMLInputElement;
    expect(runs.value).toBe('4');
    for (const [typed, words] of [
      ['17', "Runs at once can't be more than 16: enter a number from 1 to 16."],
      ['0', "Runs at once can't be less than 1: enter a number from 1 to 16."],
    ] as const) {
      fireEvent.change(runs, { target: { value: typed } });
      fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
      await waitFor(() => expect(within(dialog).getByRole('alert').textContent).toBe(words));
      expect(runs.getAttribute('aria-invalid')).toBe('true');
      expect(document.activeElement).toBe(runs);
    }
    expect(backend.log.some((c) => c.name === 'setSettings')).toBe(false);
    fireEvent.change(runs, { target: { value: '2' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(backend.view.settings.runsAtOnce).toBe(2);
  });

  it('"Sub-agent depth" (1–3, default 2) and "Sub-agents at once" (1–8, default 3) refuse out-of-range numbers in words and save nothing, then save', async () => {
    const { backend, dialog } = await openSettings();
    const depth = within(dialog).getByLabelText('Sub-agent depth') as HTMLInputElement;
    const atOnce = within(dialog).getByLabelText('Sub-agents at once') as HTMLInputElement;
    expect([depth.value, depth.min, depth.max]).toEqual(['2', '1', '3']);
    expect([atOnce.value, atOnce.min, atOnce.max]).toEqual(['3', '1', '8']);
    for (const [field, typed, words] of [
      [depth, '4', "Sub-agent depth can't be more than 3: enter a number from 1 to 3."],
      [depth, '0', "Sub-agent depth can't be less than 1: enter a number from 1 to 3."],
      [atOnce, '9', "Sub-agents at once can't be more than 8: enter a number from 1 to 8."],
      [atOnce, '0', "Sub-agents at once can't be less than 1: enter a number from 1 to 8."],
    ] as const) {
      fireEvent.change(depth, { target: { value: field === depth ? typed : '2' } });
      fireEvent.change(atOnce, { target: { value: field === atOnce ? typed : '3' } });
      fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
      await waitFor(() => expect(within(dialog).getByRole('alert').textContent).toBe(words));
      expect(field.getAttribute('aria-invalid')).toBe('true');
      expect(document.activeElement).toBe(field);
    }
    expect(backend.log.some((c) => c.name === 'setSettings')).toBe(false);
    fireEvent.change(depth, { target: { value: '3' } });
    fireEvent.change(atOnce, { target: { value: '5' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect([backend.view.settings.subAgentDepth, backend.view.settings.subAgentsAtOnce]).toEqual([3, 5]);
  });

  it('puts an invalid MCP servers JSON error at that field, focused, and saves nothing', async () => {
    const { backend, dialog } = await openSettings();
    const json = within(dialog).getByLabelText('MCP servers JSON');
    fireEvent.change(json, { target: { value: '{"mcpServers": ' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    const error = await within(dialog).findByRole('alert');
    expect(error.textContent).toMatch(/^MCP servers: the JSON is not valid/);
    expect(json.getAttribute('aria-invalid')).toBe('true');
    expect(json.getAttribute('aria-describedby')).toContain(error.id);
    expect(document.activeElement).toBe(json);
    expect(backend.log.some((c) => c.name === 'setSettings')).toBe(false);
  });

  it('saves other settings when a server name saved before the name rule is left untouched, and refuses it once the JSON is edited', async () => {
    const backend = new MemoryBackend();
    backend.view = { ...backend.view, settings: { ...backend.view.settings, mcpServers: { 'my server': { command: 'node', args: [] } } } };
    const { dialog } = await openSettings(backend);
    fireEvent.change(within(dialog).getByLabelText('Theme'), { target: { value: 'dark' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const saved = backend.log.find((c) => c.name === 'setSettings')!.input as { patch: Record<string, unknown> };
    expect(saved.patch.theme).toBe('dark');
    expect('mcpServers' in saved.patch).toBe(false);
    expect(Object.keys(backend.view.settings.mcpServers)).toEqual(['my server']);

    fireEvent.click(screen.getByRole('button', { name: 'Settings' }));
    const again = screen.getByRole('dialog', { name: 'Settings' });
    fireEvent.change(within(again).getByLabelText('MCP servers JSON'), { target: { value: JSON.stringify({ mcpServers: { 'my server': { command: 'node', args: ['x'] } } }) } });
    fireEvent.click(within(again).getByRole('button', { name: 'Save' }));
    expect((await within(again).findByRole('alert')).textContent).toContain('"my server" cannot name an MCP server');
  });

  it("shows main's refusal next to the field it names, or near Save when it names none", async () => {
    const backend = new MemoryBackend();
    let refusal = 'patch.maxRetries: Too small: expected number to be >=0';
    backend.override('setSettings', () => {
      throw new WaypointCallError('invalid_input', refusal);
    });
    const { dialog } = await openSettings(backend);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    const retries = within(dialog).getByLabelText('Max retries');
    await waitFor(() => expect(retries.getAttribute('aria-invalid')).toBe('true'));
    expect(within(dialog).getByRole('alert').textContent).toBe(refusal);

    refusal = 'The settings file could not be written (disk full).';
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(within(dialog).getByRole('alert').textContent).toBe(refusal));
    // Right above the buttons, so it is where the user is looking when Save "does nothing".
    expect(within(dialog).getByRole('alert').nextElementSibling?.className).toBe('modal-actions');
  });
});

describe('Settings → Thinking budget', () => {
  it("names the chosen model's range and refuses in words a budget above that model's output cap", async () => {
    const backend = new MemoryBackend();
    const fixed = { adaptive: false, enabled: true, efforts: [] };
    backend.override('listModels', () => ({
      models: [
        { id: 'claude-small', displayName: 'Claude Small', thinking: fixed, contextWindow: 200_000, maxOutputTokens: 8192 },
        { id: 'claude-big', displayName: 'Claude Big', thinking: fixed, contextWindow: 200_000, maxOutputTokens: 64_000 },
      ],
      source: 'api',
    }));
    backend.view = { ...backend.view, settings: { ...backend.view.settings, model: 'claude-small', extendedThinking: true, thinkingBudgetTokens: 4000 } };
    const { dialog } = await openSettings(backend);
    const budget = (await within(dialog).findByLabelText('Thinking budget (tokens)')) as HTMLInputElement;
    const hint = () => budget.getAttribute('aria-describedby')!.split(' ').map((id) => document.getElementById(id)?.textContent).join(' ');
    await waitFor(() => expect(hint()).toBe('From 1,024 to 7,168 tokens for Claude Small.'));
    expect(budget.max).toBe('7168');
    fireEvent.change(budget, { target: { value: '20000' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    const error = await within(dialog).findByRole('alert');
    expect(error.textContent).toBe("Thinking budget can't be more than 7,168 for Claude Small: enter a number from 1,024 to 7,168.");
    expect(backend.log.some((c) => c.name === 'setSettings')).toBe(false);

    // The bigger model takes it: the range follows the chosen model.
    fireEvent.change(within(dialog).getByLabelText('Model'), { target: { value: 'claude-big' } });
    await waitFor(() => expect(hint()).toContain('From 1,024 to 62,976 tokens for Claude Big.'));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(backend.view.settings.thinkingBudgetTokens).toBe(20000);
  });
});
