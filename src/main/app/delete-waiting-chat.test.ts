import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useEditAppWorld } from '../../../test-support/main/edit-app-world';
import { until as waitUntil } from '../../../test-support/main/until';
import { APP_JS, toolsEdit } from '../../../test-support/scenarios/tools-workspace';
import { type Attention, AttentionWatch } from '../../shared/attention';

/**
 * A chat deleted while it waits for a person (issue 24): its run already ended at the question
 * (one pause model), so deleting it must leave nothing that could go on — no run, no answer taken,
 * no record or file in the data folder, no notification — and it counts as waiting no more.
 * (Deleted while it runs or is queued: runs-at-once.test.ts.)
 */
const { world, start, quit } = useEditAppWorld('waypoint-delete-waiting-');

const until = (condition: () => boolean, what: string) => waitUntil(condition, what, 20_000, 20);
const filesOf = (dir: string) => readdirSync(dir, { recursive: true }).map(String);

describe('a chat deleted while it waits for a person', { timeout: 60_000 }, () => {
  it('goes whole: nothing runs, its answer is refused, no file or record names it, no notification, it waits no more (after a restart too)', async () => {
    world.api.setScenario(toolsEdit);
    const app = await start();
    const watch = new AttentionWatch();
    const called: Attention[] = [];
    app.services.onEvent((event) => {
      const attention = watch.take(event);
      if (attention) called.push(attention);
    });
    const { id } = await app.call('newSession', {});
    await app.call('sendMessage', { sessionId: id, text: 'Fix the answer' });
    await until(() => app.events.some((e) => e.type === 'run_state' && e.sessionId === id && e.state.status === 'awaiting_approval'), 'the approval');
    const request = (await app.call('getPendingPrompts', { sessionId: id })).pendingApproval!;
    expect(filesOf(world.dataDir).some((f) => f.includes(id))).toBe(true);
    expect(watch.waiting()).toBe(1);
    const asked = world.api.requests.length;
    const from = app.events.length;
    const calledBefore = called.length;

    await expect(app.call('deleteSession', { sessionId: id })).resolves.toEqual({ deleted: true });
    expect(watch.waiting()).toBe(0);
    // The answer a window still showing the prompt sends finds no chat: nothing runs.
    await expect(app.call('answerApproval', { sessionId: id, requestId: request.id, decision: 'approve' })).rejects.toMatchObject({ code: 'not_found' });
    await expect(app.call('getPendingPrompts', { sessionId: id })).rejects.toMatchObject({ code: 'not_found' });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(world.api.requests.length).toBe(asked);
    expect(readFileSync(join(world.workspace, 'src/app.js'), 'utf8')).toBe(APP_JS);
    expect(app.events.slice(from).filter((e) => 'sessionId' in e && e.sessionId === id)).toEqual([{ type: 'session_deleted', sessionId: id }]);
    expect(called.length).toBe(calledBefore);
    expect(filesOf(world.dataDir).filter((f) => f.includes(id))).toEqual([]);
    // Nor does any record: the chat index, settings, checkpoints.
    expect(filesOf(world.dataDir).filter((f) => f.endsWith('index.json'))).not.toEqual([]);
    for (const file of filesOf(world.dataDir).filter((f) => statSync(join(world.dataDir, f)).isFile())) expect(readFileSync(join(world.dataDir, file), 'utf8'), file).not.toContain(id);

    await quit(app.services);
    const again = await start();
    const listed = (await again.call('listSessions', {})).sessions;
    expect(listed.map((s) => s.id)).not.toContain(id);
    expect(listed.filter((s) => s.run === 'needs-you')).toEqual([]);
    expect(filesOf(world.dataDir).filter((f) => f.includes(id))).toEqual([]);
    expect(world.api.requests.length).toBe(asked);
  });
});
