import { describe, expect, it } from 'vitest';
import type { WaypointEvent } from '../../../shared/contract';
import { MemoryBackend } from '../test-support/memory-backend';
import { session, settingsView } from '../test-support/fixtures';
import { createWaypointStore } from '../store/create-store';
import type { NotificationHost } from './browser-notifications';
import { installNotifications } from './install-notifications';

const approval = (sessionId: string, id: string): WaypointEvent => ({
  type: 'approval_requested',
  sessionId,
  request: { id, sessionId, toolUseId: 't', toolName: 'write_file', kind: 'edit', summary: 'Write notes.md', dryRun: '', createdAt: '' },
});

/** The browser's Notification as the page would see it: recorded, clickable. */
function recordingHost() {
  const shown: Array<{ title: string; body: string; tag: string; click(): void }> = [];
  const host: NotificationHost & { focus: boolean; allow: boolean } = {
    focus: true,
    allow: true,
    focused: () => host.focus,
    allowed: () => host.allow,
    show: (title, options, onClick) => void shown.push({ title, ...options, click: onClick }),
  };
  return { host, shown };
}

function setUp(shell: 'web' | 'electron', notifications = true) {
  const backend = new MemoryBackend();
  backend.addChat('c1', 'Fix the login page');
  backend.addChat('c2', 'Write the release notes');
  const store = createWaypointStore(backend);
  const view = settingsView();
  store.setState({
    appInfo: { shell, version: 't', workspace: null },
    settingsView: { ...view, settings: { ...view.settings, notifications } },
    sessions: [session('c1', 'Fix the login page'), session('c2', 'Write the release notes')],
    currentSessionId: 'c1',
  });
  const { host, shown } = recordingHost();
  const off = installNotifications(backend, store, host);
  return { backend, store, host, shown, off };
}

describe('web shell notifications', () => {
  it('call for a chat out of view that starts waiting (title: the chat; body: what is asked), once per wait; a click opens it', async () => {
    const { backend, store, shown, off } = setUp('web');
    backend.emit(approval('c2', 'a1'));
    backend.emit(approval('c2', 'a1'));
    expect(shown.map(({ title, body, tag }) => ({ title, body, tag }))).toEqual([{ title: 'Write the release notes', body: 'Write notes.md — approve or deny it.', tag: 'waypoint-chat-c2' }]);
    store.getState().openSettings();
    shown[0]!.click();
    expect(store.getState().currentSessionId).toBe('c2');
    expect(store.getState().settingsOpen).toBe(false);
    await expect.poll(() => backend.log.some((call) => call.name === 'getSession' && (call.input as { sessionId: string }).sessionId === 'c2')).toBe(true);
    off();
  });

  it('leave the chat in view alone while the page has focus; "Done" for a run that ends out of view', () => {
    const { backend, host, shown, off } = setUp('web');
    backend.emit(approval('c1', 'a1'));
    expect(shown).toHaveLength(0);
    host.focus = false;
    backend.emit(approval('c1', 'a2'));
    expect(shown.map((n) => n.title)).toEqual(['Fix the login page']);
    host.focus = true;
    backend.emit({ type: 'run_state', sessionId: 'c2', state: { status: 'running', phase: 'streaming' } });
    backend.emit({ type: 'run_state', sessionId: 'c2', state: { status: 'idle' } });
    expect(shown.map((n) => n.body).at(-1)).toBe('Done');
    off();
  });

  it('show nothing with Settings "Notifications" off, without the browser\'s permission, or in the desktop app (main notifies there)', () => {
    for (const [shell, on, allow] of [['web', false, true], ['web', true, false], ['electron', true, true]] as const) {
      const { backend, host, shown, off } = setUp(shell, on);
      host.allow = allow;
      backend.emit(approval('c2', 'a1'));
      expect(shown, `${shell} on=${on} allowed=${allow}`).toHaveLength(0);
      off();
    }
  });

  it('in the desktop app, tell main which chat is in view when it changes', () => {
    const { backend, store, off } = setUp('electron');
    store.setState({ currentSessionId: 'c2' });
    store.setState({ announcement: 'x' });
    store.setState({ currentSessionId: null });
    expect(backend.log.filter((call) => call.name === 'setChatInView').map((call) => call.input)).toEqual([{ sessionId: 'c1' }, { sessionId: 'c2' }, { sessionId: null }]);
    off();
  });
});
