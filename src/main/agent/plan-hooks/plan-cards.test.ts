import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { plansChecklist } from '../../../../test-support/scenarios/plans-checklist';
import { plansStructured } from '../../../../test-support/scenarios/plans-structured';
import type { Scenario } from '../../../../test-support/scripted-api/scenario';
import type { Dialect } from '../../../shared/plan';
import type { PlanCompletionItem, TranscriptItem } from '../../../shared/transcript';
import { scripted, startInstance, type Instance } from '../../../../test-support/main/persistence-test-kit';
import { settingsSource } from '../../../../test-support/main/chat-test-harness';

// Every finished plan leaves a completion card (issue 12, item 7): the loop, the real PlanService
// and session log, the real SDK against scripted Claude.

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function runTo(scenario: Scenario, dialect: Dialect) {
  const dataDir = mkdtempSync(join(tmpdir(), 'wp-cards-'));
  const server = await scripted(scenario);
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }), () => server.close());
  const settings = settingsSource({ planningStyle: dialect });
  let app: Instance = await startInstance(dataDir, server.url, settings);
  cleanups.push(() => app.close());
  const session = app.chats.newSession();
  app.chat.sendMessage(session.id, 'Please do the planned work.');
  await app.idle(session.id, 15_000);
  const restart = async () => {
    await app.close();
    app = await startInstance(dataDir, server.url, settings);
    return app;
  };
  return { app, session, restart };
}

const cards = (transcript: TranscriptItem[]) => transcript.filter((i): i is PlanCompletionItem => i.kind === 'plan_completion');

const step = (n: number, action: string) => ({ kind: 'tool_use' as const, calls: [{ name: 'update_plan', input: { action, step_number: n } }] });
const plan = (goal: string, ...titles: string[]) => ({
  kind: 'tool_use' as const,
  calls: [{ name: 'create_plan', input: { goal, steps: titles.map((description, i) => ({ step_number: i + 1, description })) } }],
});

describe('completion cards', () => {
  it('checklist (no complete_plan): Waypoint makes the card from the plan when the run ends, and it is there after a restart', async () => {
    const { app, session, restart } = await runTo(plansChecklist, 'checklist');
    const transcript = app.chats.getSession(session.id).transcript;
    const [card] = cards(transcript);
    expect(cards(transcript)).toHaveLength(1);
    expect(transcript.at(-1)).toBe(card);
    expect(card).toMatchObject({
      by: 'waypoint',
      planId: app.plans.getPlan(session.id)!.id,
      goal: 'Add user preferences endpoint',
      counts: { completed: 6, failed: 0, skipped: 0, total: 6 },
      completion: { status: 'success', issues: [] },
    });
    expect(card!.completion.summary).toBe(
      'All 6 steps are done: Create preferences model; Add database migration; Implement GET /preferences endpoint; Implement PUT /preferences endpoint; Add input validation; Write tests.',
    );

    const again = await restart();
    expect(cards(again.chats.getSession(session.id).transcript)).toEqual([card]);
    expect(again.chats.getSession(session.id).plan).toMatchObject({ status: 'completed' });
  });

  it('structured, when Claude skips complete_plan: the same Waypoint card, with the skipped step as an issue', async () => {
    const { app, session } = await runTo(
      {
        name: 'no-complete-plan',
        turns: [
          plan('Ship it', 'Build', 'Test', 'Tag'),
          step(1, 'start_step'),
          step(1, 'complete_step'),
          { kind: 'tool_use', calls: [{ name: 'update_plan', input: { action: 'skip_step', step_number: 2, reason: 'No tests yet' } }] },
          step(3, 'start_step'),
          step(3, 'complete_step'),
          { kind: 'text', text: 'Shipped.' },
        ],
      },
      'structured',
    );
    const [card] = cards(app.chats.getSession(session.id).transcript);
    expect(card).toMatchObject({
      by: 'waypoint',
      counts: { completed: 2, skipped: 1, total: 3 },
      completion: { status: 'partial_success', summary: '2 of 3 steps are done: Build; Tag; 1 was skipped.', issues: ['Step 2 "Test" skipped: No tests yet'] },
      // The card lists every step as it ended, so the plan is still there once the panel hides.
      steps: [
        { number: '1', title: 'Build', status: 'completed' },
        { number: '2', title: 'Test', status: 'skipped', result: 'No tests yet' },
        { number: '3', title: 'Tag', status: 'completed' },
      ],
    });
  });

  it('one step of three done: "1 of 3 steps is done"; a step Claude added is listed by the number the panel gave it', async () => {
    const { app, session } = await runTo(
      {
        name: 'one-of-two',
        turns: [
          plan('Tidy up', 'Sweep', 'Dust'),
          { kind: 'tool_use', calls: [{ name: 'update_plan', input: { action: 'add_step', new_step: { description: 'Open the windows', after_step: 1 } } }] },
          { kind: 'tool_use', calls: [{ name: 'update_plan', input: { action: 'skip_step', step_number: 2, reason: 'Nothing to dust' } }] },
          { kind: 'tool_use', calls: [{ name: 'update_plan', input: { action: 'skip_step', step_number: 3, reason: 'Too cold' } }] },
          step(1, 'start_step'),
          { kind: 'tool_use', calls: [{ name: 'update_plan', input: { action: 'complete_step', step_number: 1, result: 'Swept the hall' } }] },
          { kind: 'text', text: 'Done.' },
        ],
      },
      'structured',
    );
    const [card] = cards(app.chats.getSession(session.id).transcript);
    expect(card?.completion.summary).toBe('1 of 3 steps is done: Sweep; 2 were skipped.');
    // "Open the windows" is step 3 to Claude, added after step 1: the panel showed it as 2.
    expect(card?.steps?.map((s) => `${s.number}. ${s.title} (${s.status})${s.result ? `: ${s.result}` : ''}`)).toEqual([
      '1. Sweep (completed): Swept the hall',
      '2. Open the windows (skipped): Too cold',
      '3. Dust (skipped): Nothing to dust',
    ]);
  });

  it('complete_plan gives Claude\'s card at once and no second one at the end of the run', async () => {
    const { app, session } = await runTo(plansStructured, 'structured');
    const all = cards(app.chats.getSession(session.id).transcript);
    expect(all).toHaveLength(1);
    // This chat has no workspace, so the verification's list_directory was refused and step 3
    // stayed in progress: Claude's "success" is recorded as partial (complete_plan's claims are
    // checked against the plan, issue 25).
    expect(all[0]).toMatchObject({ by: 'claude', completion: { status: 'partial_success', stepsCompleted: 2 }, counts: { completed: 2, total: 3 } });
  });

  it('a finished plan replaced by a new one in the same run still gets its card, before the new plan\'s lines', async () => {
    const { app, session } = await runTo(
      {
        name: 'two-plans',
        turns: [
          plan('First', 'Only step'),
          step(1, 'start_step'),
          step(1, 'complete_step'),
          plan('Second', 'Next step'),
          { kind: 'text', text: 'On to the second plan.' },
        ],
      },
      'structured',
    );
    const transcript = app.chats.getSession(session.id).transcript;
    const all = cards(transcript);
    expect(all).toHaveLength(1);
    expect(all[0]).toMatchObject({ goal: 'First', by: 'waypoint', completion: { status: 'success' } });
    const lastLine = transcript.findLastIndex((i) => i.kind === 'plan_change');
    expect(transcript[lastLine]).toMatchObject({ text: expect.stringMatching(/^Created plan/) });
    expect(transcript.indexOf(all[0]!)).toBeLessThan(lastLine);
    expect(app.plans.getPlan(session.id)).toMatchObject({ goal: 'Second', status: 'active' });
  });

  it('an active plan gets no card', async () => {
    const { app, session } = await runTo({ name: 'paused', turns: [plan('Later', 'A', 'B'), step(1, 'start_step'), { kind: 'text', text: 'Paused here.' }] }, 'structured');
    expect(cards(app.chats.getSession(session.id).transcript)).toEqual([]);
  });
});
