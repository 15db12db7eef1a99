import { describe, expect, it } from 'vitest';
import { useEditAppWorld } from '../../../test-support/main/edit-app-world';
import { until as waitUntil } from '../../../test-support/main/until';
import { toolsEdit } from '../../../test-support/scenarios/tools-workspace';
import { type Attention, AttentionWatch } from '../../shared/attention';

/**
 * Notifications across a restart (docs/contract.md §8): a chat still waiting after the app starts
 * again was already called for; what a window does on connecting (list, open, read its prompt,
 * tell main the chat in view) must not call for it again. Watched as both shells watch: the
 * shared AttentionWatch over the app's events, seeded (as electron/main.ts does) with the chats
 * the list stamps "needs-you".
 */
const { world, start, quit } = useEditAppWorld('waypoint-attention-restart-');

const until = (condition: () => boolean, what: string) => waitUntil(condition, what, 20_000, 20);

describe('a chat still waiting after a restart', { timeout: 60_000 }, () => {
  it('is called for once, before the restart: nothing after it calls for the same wait again; its answer then says "Done" once', async () => {
    world.api.setScenario(toolsEdit);
    const first = await start();
    const { id } = await first.call('newSession', {});
    const before = new AttentionWatch();
    const calledBefore: Attention[] = [];
    first.services.onEvent((event) => {
      const attention = before.take(event);
      if (attention) calledBefore.push(attention);
    });
    await first.call('sendMessage', { sessionId: id, text: 'Fix the answer' });
    await until(() => first.events.some((e) => e.type === 'run_state' && e.state.status === 'awaiting_approval'), 'the approval');
    expect(calledBefore.map((a) => a.kind)).toEqual(['waiting']);
    await quit(first.services);

    const second = await start();
    const listed = await second.call('listSessions', {});
    const waitingAtStart = listed.sessions.filter((chat) => chat.run === 'needs-you').map((chat) => chat.id);
    expect(waitingAtStart).toEqual([id]);
    const watch = new AttentionWatch();
    watch.seed(waitingAtStart);
    const called: Attention[] = [];
    second.services.onEvent((event) => {
      const attention = watch.take(event);
      if (attention) called.push(attention);
    });
    // What windows do on connecting, twice (a reload): list, open the chat, read what it asks, say it is in view.
    for (let round = 0; round < 2; round++) {
      await second.call('listSessions', {});
      const snapshot = await second.call('getSession', { sessionId: id });
      expect(snapshot.pendingApproval).not.toBeNull();
      await second.call('getPendingPrompts', { sessionId: id });
      await second.call('setChatInView', { sessionId: id });
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(called).toEqual([]);
    expect(watch.waiting()).toBe(1);

    const request = (await second.call('getPendingPrompts', { sessionId: id })).pendingApproval!;
    await expect(second.call('answerApproval', { sessionId: id, requestId: request.id, decision: 'approve' })).resolves.toEqual({ accepted: true });
    await until(() => called.some((a) => a.kind === 'done'), 'the run to finish');
    expect(called.map((a) => a.kind)).toEqual(['done']);
    expect(watch.waiting()).toBe(0);
  });
});
