// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { App } from '../components/App';
import { connectStore } from '../store/connect';
import { createWaypointStore } from '../store/create-store';
import { StoreProvider } from '../store/store-context';
import { plan, step } from '../test-support/fixtures';
import { MemoryBackend } from '../test-support/memory-backend';
import { installShortcuts } from './install-shortcuts';
import { keyParts, matchGlobal } from './shortcuts';

// The whole App with the real store, the in-memory backend and the shortcuts on the document.
let teardown: Array<() => void> = [];
beforeEach(() => localStorage.clear());
afterEach(() => {
  for (const fn of teardown) fn();
  teardown = [];
  cleanup();
});

async function mount(backend: MemoryBackend) {
  const store = createWaypointStore(backend);
  teardown.push(connectStore(backend, store, { schedule: (f) => (f(), () => {}), bookkeepingSchedule: (f) => (f(), () => {}), retryDelayMs: () => 20 }));
  teardown.push(installShortcuts(store));
  render(
    <StoreProvider store={store}>
      <App />
    </StoreProvider>,
  );
  await screen.findByRole('textbox', { name: 'Message' });
  return store;
}

const press = (target: Element | Document, key: string, init: KeyboardEventInit = {}) =>
  act(() => {
    fireEvent.keyDown(target, { key, ...init });
  });

describe('keyboard shortcuts', () => {
  it('Escape in the message box stops a working run, and does nothing when idle or elsewhere', async () => {
    const backend = new MemoryBackend();
    backend.addChat('a', 'Busy chat', { runState: { status: 'running', phase: 'streaming' } });
    await mount(backend);
    const box = screen.getByRole('textbox', { name: 'Message' });
    await press(document.body, 'Escape');
    expect(backend.log.filter((c) => c.name === 'stop')).toHaveLength(0); // not in the composer
    await press(box, 'Escape');
    expect(backend.log.filter((c) => c.name === 'stop')).toEqual([{ name: 'stop', input: { sessionId: 'a' } }]);

    backend.emit({ type: 'run_state', sessionId: 'a', state: { status: 'idle' } });
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Stop' })).toBeNull());
    await press(box, 'Escape');
    expect(backend.log.filter((c) => c.name === 'stop')).toHaveLength(1);
  });

  it('Escape in the message box takes a queued chat off the queue, as Stop does', async () => {
    const backend = new MemoryBackend();
    backend.addChat('a', 'Queued chat');
    backend.chats.get('a')!.summary = { ...backend.chats.get('a')!.summary, queued: 1_700_000_000_000 };
    await mount(backend);
    await waitFor(() => expect(screen.getByRole('button', { name: 'Stop' })).toBeTruthy());
    await press(screen.getByRole('textbox', { name: 'Message' }), 'Escape');
    expect(backend.log.filter((c) => c.name === 'stop')).toEqual([{ name: 'stop', input: { sessionId: 'a' } }]);
  });

  it('Escape in an open dialog closes it and never stops Claude', async () => {
    const backend = new MemoryBackend();
    backend.addChat('a', 'Busy chat', { runState: { status: 'running', phase: 'streaming' } });
    await mount(backend);
    await press(document.body, ',', { ctrlKey: true });
    const dialog = await screen.findByRole('dialog', { name: 'Settings' });
    await press(dialog, 'Escape');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(backend.log.some((c) => c.name === 'stop')).toBe(false);
  });

  it('Mod+Shift+O opens a new chat and puts the cursor in its message box', async () => {
    const backend = new MemoryBackend();
    backend.addChat('a', 'Old chat');
    await mount(backend);
    await press(document.body, 'O', { code: 'KeyO', ctrlKey: true, shiftKey: true });
    await waitFor(() => expect(backend.log.some((c) => c.name === 'newSession')).toBe(true));
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('textbox', { name: 'Message' })));
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('New chat');
  });

  it('Mod+Shift+L collapses and expands the Task plan, like its header button', async () => {
    const backend = new MemoryBackend();
    backend.addChat('a', 'Plan chat', { plan: plan([step(1, 'First', 'in_progress'), step(2, 'Second')]) });
    await mount(backend);
    const region = await screen.findByRole('region', { name: 'Task plan' });
    const header = within(region).getByRole('button', { name: /Task Plan/ });
    expect(header.getAttribute('aria-expanded')).toBe('true');
    await press(screen.getByRole('textbox', { name: 'Message' }), 'L', { code: 'KeyL', metaKey: true, shiftKey: true });
    expect(header.getAttribute('aria-expanded')).toBe('false');
    expect(localStorage.getItem('waypoint.taskPlan.collapsed')).toBe('true');
    fireEvent.click(header);
    expect(header.getAttribute('aria-expanded')).toBe('true');
  });

  it('Mod+Shift+L in a chat without a plan changes nothing and says there is no plan; the next plan opens expanded', async () => {
    const backend = new MemoryBackend();
    backend.addChat('a', 'Plain chat');
    const store = await mount(backend);
    await press(screen.getByRole('textbox', { name: 'Message' }), 'L', { code: 'KeyL', ctrlKey: true, shiftKey: true });
    expect(store.getState().planCollapsed).toBe(false);
    expect(localStorage.getItem('waypoint.taskPlan.collapsed')).not.toBe('true');
    expect(screen.getByRole('status').textContent).toBe('There is no plan in this chat.');
    act(() => store.getState().applyPlan('a', plan([step(1, 'First', 'in_progress'), step(2, 'Second')])));
    const region = await screen.findByRole('region', { name: 'Task plan' });
    expect(within(region).getByRole('button', { name: /Task Plan/ }).getAttribute('aria-expanded')).toBe('true');
  });

  it('Mod+Shift+A moves focus to the approval waiting for an answer', async () => {
    const backend = new MemoryBackend();
    backend.addChat('a', 'Edit chat', { runState: { status: 'awaiting_approval', requestId: 'r1' } });
    const store = await mount(backend);
    act(() =>
      store.getState().setApproval('a', {
        id: 'r1',
        sessionId: 'a',
        toolUseId: 't1',
        toolName: 'write_file',
        kind: 'edit',
        summary: 'Write notes.md',
        dryRun: 'Would create notes.md',
        createdAt: new Date().toISOString(),
      }),
    );
    const card = await screen.findByRole('alertdialog', { name: /Approve/ });
    const box = screen.getByRole('textbox', { name: 'Message' });
    box.focus();
    await press(box, 'A', { code: 'KeyA', ctrlKey: true, shiftKey: true });
    expect(document.activeElement).toBe(card);
  });

  it('Mod+/ opens the list of shortcuts with their keys; the ? button does too', async () => {
    await mount(new MemoryBackend());
    await press(document.body, '/', { code: 'Slash', ctrlKey: true });
    const dialog = await screen.findByRole('dialog', { name: 'Keyboard shortcuts' });
    expect(within(dialog).getByRole('rowheader', { name: /New chat/ }).closest('tr')?.textContent).toContain('Ctrl+Shift+O');
    expect(within(dialog).getByRole('rowheader', { name: /Stop Claude/ }).closest('tr')?.textContent).toContain('Escape');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Keyboard shortcuts' }));
    expect(screen.getByRole('dialog', { name: 'Keyboard shortcuts' })).toBeTruthy();
  });
});

describe('matchGlobal', () => {
  const key = (k: string, extra: Partial<KeyboardEventInit> & { code?: string } = {}) => ({
    key: k,
    code: extra.code ?? '',
    ctrlKey: !!extra.ctrlKey,
    metaKey: !!extra.metaKey,
    shiftKey: !!extra.shiftKey,
    altKey: !!extra.altKey,
  });

  it('needs Ctrl or ⌘, ignores Alt combinations and plain typing', () => {
    expect(matchGlobal(key('o'), false)).toBeNull();
    expect(matchGlobal(key('O', { shiftKey: true }), false)).toBeNull();
    expect(matchGlobal(key('O', { ctrlKey: true, shiftKey: true, altKey: true }), false)).toBeNull();
    expect(matchGlobal(key('O', { ctrlKey: true, shiftKey: true }), false)).toBe('newChat');
    expect(matchGlobal(key('O', { metaKey: true, shiftKey: true }), false)).toBe('newChat');
  });

  it('offers Mod+N only in the desktop app, where the browser does not own it', () => {
    expect(matchGlobal(key('n', { ctrlKey: true }), false)).toBeNull();
    expect(matchGlobal(key('n', { ctrlKey: true }), true)).toBe('newChat');
  });

  it('matches by physical key too, so other layouts work', () => {
    expect(matchGlobal(key('Ł', { code: 'KeyL', ctrlKey: true, shiftKey: true }), false)).toBe('togglePlan');
  });

  it('shows ⌘ on macOS and Ctrl elsewhere', () => {
    expect(keyParts('Mod+Shift+A', true)).toEqual(['⌘', 'Shift', 'A']);
    expect(keyParts('Mod+Shift+A', false)).toEqual(['Ctrl', 'Shift', 'A']);
  });
});
