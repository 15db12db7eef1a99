import { beforeEach, describe, expect, it, vi } from 'vitest';
import { IPC_EVENT_CHANNEL, type WaypointEvent } from '../../shared/contract';
import { Emitter } from '../common/emitter';
import { recorded, StandInWindow } from '../../../test-support/electron-stand-in';

vi.mock('electron', async () => (await import('../../../test-support/electron-stand-in')).electron);
const { notifyDesktop } = await import('./attention-notifier');

const titles: Record<string, string> = { c1: 'Fix the login page', c2: 'Write the release notes' };

const approval = (sessionId: string, id: string): WaypointEvent => ({
  type: 'approval_requested',
  sessionId,
  request: { id, sessionId, toolUseId: 't', toolName: 'run_command', kind: 'command', summary: 'Run `npm test`', dryRun: '', createdAt: '' },
});
const runState = (sessionId: string, state: Extract<WaypointEvent, { type: 'run_state' }>['state']): WaypointEvent => ({ type: 'run_state', sessionId, state });

function setUp(inView: string | null) {
  const events = new Emitter<WaypointEvent>();
  const win = new StandInWindow({});
  const view = { chat: inView };
  const off = notifyDesktop({ onEvent: events.event, chatInView: () => view.chat }, () => win as never, (id) => titles[id]);
  return { events, win, view, off };
}

beforeEach(() => {
  recorded.notificationsSupported = true;
  recorded.notifications.length = 0;
  recorded.badgeCounts.length = 0;
  recorded.windows.length = 0;
});

describe('desktop notifications', () => {
  it('call for a chat out of view that starts waiting, titled with the chat, with no buttons; a click opens that chat in the window', () => {
    const { events, win, off } = setUp('c1');
    events.fire(approval('c2', 'a1'));
    expect(recorded.notifications.map((n) => n.options)).toEqual([{ title: 'Write the release notes', body: 'Run `npm test` — approve or deny it.' }]);
    win.focused = false;
    win.minimized = true;
    recorded.notifications[0]!.emit('click');
    expect(win.calls).toEqual(['restore', 'show', 'focus']);
    expect(win.webContents.sent).toEqual([[IPC_EVENT_CHANNEL, [{ type: 'open_chat', sessionId: 'c2' }]]]);
    off.dispose();
  });

  it('leave the chat in view alone while the window has focus, and call for it when the window is in the background', () => {
    const { events, win, off } = setUp('c1');
    events.fire(approval('c1', 'a1'));
    expect(recorded.notifications).toHaveLength(0);
    win.focused = false;
    events.fire(approval('c1', 'a2'));
    expect(recorded.notifications.map((n) => n.options.title)).toEqual(['Fix the login page']);
    off.dispose();
  });

  it('one per chat per wait: the same prompt again shows nothing, a run that ends says "Done" in place of the last', () => {
    const { events, off } = setUp(null);
    events.fire(runState('c2', { status: 'running', phase: 'tools' }));
    events.fire(approval('c2', 'a1'));
    events.fire(runState('c2', { status: 'awaiting_approval', requestId: 'a1' }));
    events.fire(approval('c2', 'a1'));
    expect(recorded.notifications).toHaveLength(1);
    events.fire(runState('c2', { status: 'running', phase: 'streaming' }));
    events.fire(runState('c2', { status: 'idle' }));
    expect(recorded.notifications.map((n) => n.options.body)).toEqual(['Run `npm test` — approve or deny it.', 'Done']);
    expect(recorded.notifications[0]!.closed).toBe(true);
    off.dispose();
  });

  it('start the badge at the chats already waiting (restored after a restart), then follow their events', () => {
    const events = new Emitter<WaypointEvent>();
    const win = new StandInWindow({});
    const off = notifyDesktop({ onEvent: events.event, chatInView: () => null }, () => win as never, (id) => titles[id], ['c1', 'c2']);
    expect(recorded.badgeCounts).toEqual([2]);
    // c1's answer came: its run goes on, so it waits no more; c2 still does.
    events.fire(runState('c1', { status: 'running', phase: 'requesting' }));
    events.fire(approval('c3', 'a3'));
    events.fire(runState('c3', { status: 'awaiting_approval', requestId: 'a3' }));
    events.fire(runState('c2', { status: 'idle' }));
    expect(recorded.badgeCounts).toEqual([2, 1, 2, 1]);
    off.dispose();
  });

  it('keep the dock/taskbar badge at the number of chats waiting', () => {
    const { events, off } = setUp(null);
    events.fire(runState('c1', { status: 'awaiting_approval', requestId: 'a1' }));
    events.fire(runState('c2', { status: 'awaiting_question', requestId: 'q1' }));
    events.fire(runState('c1', { status: 'running', phase: 'tools' }));
    events.fire({ type: 'session_deleted', sessionId: 'c2' });
    expect(recorded.badgeCounts).toEqual([1, 2, 1, 0]);
    off.dispose();
  });

  it('show nothing where the system has no notifications', () => {
    recorded.notificationsSupported = false;
    const { events, off } = setUp(null);
    events.fire(approval('c2', 'a1'));
    expect(recorded.notifications).toHaveLength(0);
    off.dispose();
  });
});
