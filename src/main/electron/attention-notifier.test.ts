import { EventEmitter } from 'node:events';
import { describe, expect, it, vi } from 'vitest';
import type { WaypointEvent } from '../../shared/contract';
import { Emitter } from '../common/emitter';
import type { AppServices } from '../app/services';

/** Notifications as Electron would show them: recorded, clickable. */
const shown: Array<EventEmitter & { options: { title: string; body: string } }> = [];
vi.mock('electron', () => ({
  Notification: class extends EventEmitter {
    static isSupported = () => true;
    constructor(readonly options: { title: string; body: string }) {
      super();
    }
    show() {
      shown.push(this as never);
    }
  },
}));

const { notifyWhenUnfocused } = await import('./attention-notifier');

function windowStandIn(focused: boolean) {
  const calls: string[] = [];
  return {
    calls,
    focused,
    isFocused() {
      return this.focused;
    },
    isDestroyed: () => false,
    isMinimized: () => true,
    restore: () => calls.push('restore'),
    show: () => calls.push('show'),
    focus: () => calls.push('focus'),
  };
}

const question: WaypointEvent = {
  type: 'question_requested',
  sessionId: 's',
  request: { id: 'q', sessionId: 's', toolUseId: 't', question: 'Which database?', options: ['PostgreSQL', 'SQLite'], allowText: false, createdAt: '' },
};

describe('desktop notifications', () => {
  it('announce a question from Claude (and an approval) only while the window is in the background; a click brings it back', () => {
    const events = new Emitter<WaypointEvent>();
    const win = windowStandIn(false);
    const services = { onEvent: events.event } as unknown as AppServices;
    const off = notifyWhenUnfocused(services, () => win as never);

    events.fire(question);
    expect(shown.map((n) => n.options)).toEqual([{ title: 'Claude asks', body: 'Which database? (PostgreSQL / SQLite)' }]);
    shown[0]!.emit('click');
    expect(win.calls).toEqual(['restore', 'show', 'focus']);

    events.fire({ type: 'approval_requested', sessionId: 's', request: { id: 'a', sessionId: 's', toolUseId: 't', toolName: 'run_command', kind: 'command', summary: 'Run `ls`', dryRun: '', createdAt: '' } });
    expect(shown.at(-1)!.options.title).toBe('Waypoint needs your approval');

    win.focused = true;
    events.fire(question);
    events.fire({ type: 'run_state', sessionId: 's', state: { status: 'idle' } });
    expect(shown).toHaveLength(2);
    off.dispose();
  });
});
