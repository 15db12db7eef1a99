import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  UNDO_CREATED,
  UNDO_EDITED,
  UNDO_EDITED_AFTER,
  UNDO_EDITED_TEXT,
  UNDO_FILES,
  recoveryUndoPlan,
} from '../../../../test-support/scenarios/recovery-patterns';
import { RECOVERY_FILE, RECOVERY_FILE_TEXT, recoveryEscalationAbort } from '../../../../test-support/scenarios/recovery-escalation';
import type { Scenario } from '../../../../test-support/scripted-api/scenario';
import { startScriptedServer } from '../../../../test-support/scripted-api/server';
import type { WaypointEvent } from '../../../shared/contract';
import type { Plan } from '../../../shared/plan';
import type { PlanCompletionItem, TranscriptItem } from '../../../shared/transcript';
import { MemorySecretStore } from '../../settings/api-key-store';
import { createServices, type AppServices } from '../../app/services';

// "Undo plan" through the call router (issue 12, item 9): the files go back, and the plan shows
// as undone - no step ticked - in its state, its card and after a reload of the chat.

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function start(scenario: Scenario, files: Record<string, string> = UNDO_FILES) {
  const dir = await mkdtemp(join(tmpdir(), 'waypoint-undo-'));
  const workspace = join(dir, 'ws');
  await mkdir(join(dir, 'data'), { recursive: true });
  await mkdir(workspace);
  for (const [rel, text] of Object.entries(files)) await writeFile(join(workspace, rel), text);
  await writeFile(join(dir, 'data', 'settings.json'), JSON.stringify({ autoApproveEdits: true, retryDelayMs: 0 }));
  const api = await startScriptedServer({ scenario });
  const services: AppServices = await createServices({
    dataDir: join(dir, 'data'),
    workspace,
    shell: 'web',
    secretStore: new MemorySecretStore(),
    env: { ANTHROPIC_API_KEY: 'test-key-undo', ANTHROPIC_BASE_URL: api.url },
  });
  cleanups.push(() => rm(dir, { recursive: true, force: true }), () => api.close(), () => services.dispose());
  const events: WaypointEvent[] = [];
  services.onEvent((e) => events.push(e));
  const call = async <T>(name: string, input: unknown): Promise<T> => {
    const result = await services.router(name, input);
    if (!result.ok) throw Object.assign(new Error(result.error.message), { code: result.error.code });
    return result.value as T;
  };
  const { id: sessionId } = await call<{ id: string }>('newSession', {});
  const idle = async () => {
    const from = events.length;
    for (const deadline = Date.now() + 15_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 20))) {
      if (events.slice(from).some((e) => e.type === 'run_state' && e.sessionId === sessionId && e.state.status === 'idle')) return;
    }
    throw new Error('the run did not end');
  };
  const snapshot = () => call<{ plan: Plan; transcript: TranscriptItem[] }>('getSession', { sessionId });
  const cards = async () => (await snapshot()).transcript.filter((i): i is PlanCompletionItem => i.kind === 'plan_completion');
  return { call, sessionId, workspace, idle, snapshot, cards, events };
}

const file = (workspace: string, rel: string) => readFileSync(join(workspace, rel), 'utf8');

describe('Undo plan', () => {
  it('on a paused plan: files back, the plan ends undone with no step ticked, and a card says so', async () => {
    const app = await start(recoveryUndoPlan);
    const done = app.idle();
    await app.call('sendMessage', { sessionId: app.sessionId, text: 'Prepare the 1.0 release' });
    await done;
    expect(file(app.workspace, UNDO_EDITED)).toBe(UNDO_EDITED_AFTER);
    expect((await app.snapshot()).plan.steps.map((s) => s.status)).toEqual(['completed', 'completed', 'pending']);

    const outcome = await app.call('undoPlan', { sessionId: app.sessionId, overwriteChangedOutside: false });
    expect(outcome).toEqual({ restored: [UNDO_EDITED], deleted: [UNDO_CREATED], skipped: [] });
    expect(file(app.workspace, UNDO_EDITED)).toBe(UNDO_EDITED_TEXT);
    expect(existsSync(join(app.workspace, UNDO_CREATED))).toBe(false);

    const { plan } = await app.snapshot();
    expect(plan.status).toBe('cancelled');
    expect(plan.steps.map((s) => s.status)).toEqual(['pending', 'pending', 'pending']);
    expect(plan.summary).toMatchObject({ completed: 0, percent: 0 });
    expect(plan.undone).toMatchObject({ restored: [UNDO_EDITED], deleted: [UNDO_CREATED], skipped: [] });
    expect(await app.cards()).toEqual([
      expect.objectContaining({ by: 'waypoint', planId: plan.id, undone: plan.undone, completion: expect.objectContaining({ status: 'failed' }) }),
    ]);
  });

  it('on a finished plan: its card turns undone in place, keeps what it said, and a second undo merges the files', async () => {
    const app = await start({
      ...recoveryUndoPlan,
      name: 'undo-completed',
      turns: [
        ...recoveryUndoPlan.turns.slice(0, -1),
        { kind: 'tool_use', calls: [{ name: 'update_plan', input: { action: 'skip_step', step_number: 3, reason: 'Tag later' } }] },
        { kind: 'tool_use', calls: [{ name: 'complete_plan', input: { status: 'partial_success', summary: 'Config and changelog done.' } }] },
        { kind: 'text', text: 'All set for now.' },
      ],
    });
    const done = app.idle();
    await app.call('sendMessage', { sessionId: app.sessionId, text: 'Prepare the 1.0 release' });
    await done;
    const [before] = await app.cards();
    expect(before).toMatchObject({ by: 'claude', counts: { completed: 2, skipped: 1, total: 3 } });

    writeFileSync(join(app.workspace, UNDO_EDITED), 'tuned by hand\n');
    await app.call('undoPlan', { sessionId: app.sessionId, overwriteChangedOutside: false });
    const [undone] = await app.cards();
    expect(undone).toMatchObject({
      id: before!.id,
      by: 'claude',
      counts: before!.counts,
      completion: before!.completion,
      undone: { restored: [], deleted: [UNDO_CREATED], skipped: [UNDO_EDITED] },
    });
    expect((await app.snapshot()).plan.steps.map((s) => s.status)).toEqual(['pending', 'pending', 'skipped']);

    await app.call('undoPlan', { sessionId: app.sessionId, overwriteChangedOutside: true });
    expect(file(app.workspace, UNDO_EDITED)).toBe(UNDO_EDITED_TEXT);
    const cards = await app.cards();
    expect(cards).toHaveLength(1);
    expect(cards[0]!.undone).toMatchObject({ restored: [UNDO_EDITED], deleted: [UNDO_CREATED], skipped: [] });
  });

  it('while a stuck step asks the user: the question is answered "Abort plan", then the plan is undone', async () => {
    const app = await start(recoveryEscalationAbort, { [RECOVERY_FILE]: RECOVERY_FILE_TEXT });
    await app.call('sendMessage', { sessionId: app.sessionId, text: 'Tidy notes.txt' });
    for (const deadline = Date.now() + 15_000; !app.events.some((e) => e.type === 'escalation_requested'); await new Promise((r) => setTimeout(r, 20))) {
      if (Date.now() > deadline) throw new Error('no escalation');
    }
    const done = app.idle();
    await app.call('undoPlan', { sessionId: app.sessionId, overwriteChangedOutside: false });
    await done;
    expect(app.events).toContainEqual(expect.objectContaining({ type: 'escalation_resolved', answer: 'abort' }));
    const { plan } = await app.snapshot();
    expect(plan).toMatchObject({ status: 'cancelled', undone: { restored: [], deleted: [], skipped: [] } });
    expect(plan.steps.map((s) => s.status)).toEqual(['pending', 'pending']);
    expect(await app.cards()).toEqual([expect.objectContaining({ planStatus: 'cancelled', undone: plan.undone })]);
  });

  it('is refused while Claude works on the plan, and changes nothing', async () => {
    const app = await start({ ...recoveryUndoPlan, latencyMs: 1_500 });
    const done = app.idle();
    await app.call('sendMessage', { sessionId: app.sessionId, text: 'Prepare the 1.0 release' });
    await expect(app.call('undoPlan', { sessionId: app.sessionId, overwriteChangedOutside: false })).rejects.toMatchObject({
      code: 'busy',
      message: 'Claude is still working on this plan. Press Stop (or wait until it finishes), then Undo plan.',
    });
    await app.call('stop', { sessionId: app.sessionId });
    await done;
  });
});
