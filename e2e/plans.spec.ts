import { plansChecklist } from '../test-support/scenarios/plans-checklist';
import { plansSession } from '../test-support/scenarios/plans-session';
import { plansStructured } from '../test-support/scenarios/plans-structured';
import { plansWbs } from '../test-support/scenarios/plans-wbs';
import { expect, test } from './support/fixtures';
import { choosePlanningStyle, expectProgress, planPanel, send } from './support/plan-panel';

// Every scenario is gated: the scripted server answers one request per `release()`, so the test
// sees every intermediate state of the panel, exactly as a user watching it would.

test.describe('structured dialect (seed 000: the 3×3 grid plan)', () => {
  test.use({ scenario: { ...plansStructured, gated: true } });

  test('the panel follows every update, collapses, hides on completion, and the summary stays', async ({ app, scripted }) => {
    const panel = planPanel(app);
    await send(app, 'Create a structural grid with 3 gridlines in each direction at 25 ft spacing');
    await expect(panel.region).toHaveCount(0);

    await scripted.release(); // create_plan
    await expectProgress(app, 0, 3);
    await expect(panel.steps).toHaveCount(3);
    await expect(panel.step('Create vertical grid lines A, B, C')).toHaveAttribute('data-status', 'pending');

    await scripted.release(); // start step 1
    await expect(panel.step('Create vertical grid lines A, B, C')).toHaveAttribute('data-status', 'in_progress');
    await scripted.release(); // complete step 1
    await expect(panel.step('Create vertical grid lines A, B, C')).toHaveAttribute('data-status', 'completed');
    await expectProgress(app, 1, 3);

    // Collapse hides the body but keeps the header's progress; expanding brings it back.
    await expect(panel.header).toHaveAttribute('aria-expanded', 'true');
    await panel.header.click();
    await expect(panel.header).toHaveAttribute('aria-expanded', 'false');
    await expect(panel.steps).toHaveCount(0);
    await expectProgress(app, 1, 3);
    await panel.header.click();
    await expect(panel.steps).toHaveCount(3);

    await scripted.release(); // start 2
    await scripted.release(); // complete 2
    await expectProgress(app, 2, 3);
    await scripted.release(); // start 3
    await expect(panel.step('Verify grid layout')).toHaveAttribute('data-status', 'in_progress');
    await scripted.release(); // complete 3 → the plan completes by itself and the panel hides
    await expect(panel.region).toHaveCount(0);

    await scripted.release(); // complete_plan → completion card
    const log = app.getByRole('log', { name: 'Conversation', exact: true });
    await expect(log.getByText("Created a 3x3 structural grid at 25' spacing and verified it.")).toBeVisible();
    // The plan's changes are folded into lines that expand, each naming its step's title.
    await log.getByRole('button', { name: /^Plan updated \d+ times/ }).first().click();
    await expect(log.getByText(/step 1 “Create vertical grid lines A, B, C at 25' spacing” completed/).first()).toBeVisible();
    await scripted.release(); // final text
    // The transcript is virtualised and the user opened a group above: go to the end, as a person
    // would, to read the last reply (the completion card, now listing its steps, is tall).
    await log.focus();
    await expect(async () => {
      await app.keyboard.press('End');
      await expect(log.getByText(/the screenshot confirms the layout/)).toBeVisible({ timeout: 1_000 });
    }).toPass();
    await expect(panel.region).toHaveCount(0);
  });
});

test.describe('checklist dialect (seed 002: the user-preferences endpoint)', () => {
  test.use({ scenario: { ...plansChecklist, gated: true } });

  test('whole-list updates move the counts and the bar step by step', async ({ app, scripted }) => {
    await choosePlanningStyle(app, 'checklist');
    await send(app, 'Add a new API endpoint for user preferences');
    await scripted.release();
    await expectProgress(app, 0, 6);
    const panel = planPanel(app);
    await expect(panel.step('Create preferences model')).toHaveAttribute('data-status', 'in_progress');
    await expect(panel.region).toContainText('Add user preferences endpoint');
    for (let done = 1; done <= 5; done++) {
      await scripted.release();
      await expectProgress(app, done, 6);
    }
    await expect(panel.step('Write tests')).toHaveAttribute('data-status', 'in_progress');
    await scripted.release(); // all completed → hidden
    await expect(panel.region).toHaveCount(0);
    await scripted.release();
    await expect(app.getByText(/The user preferences endpoint is in place/)).toBeVisible();
    // The completed plan then gets Waypoint's one goal check (issue 25), a ninth request forcing
    // report_goal_check, which the gate holds. The tool result Claude saw, the seed's JSON, is in
    // the request before it: the eighth, the one the final text answered.
    await expect.poll(() => scripted.requests.length).toBeGreaterThanOrEqual(9);
    expect(scripted.requests.map((r) => (r.body as { tool_choice?: { name?: string } }).tool_choice?.name ?? null)).toEqual([...Array<null>(8).fill(null), 'report_goal_check']);
    const lastToolResult = JSON.stringify(scripted.requests[7]!.body);
    expect(lastToolResult).toContain('\\"success\\":true');
    expect(lastToolResult).toContain('\\"version\\"');
  });
});

test.describe('wbs dialect (seed 001: multiplayer 2048)', () => {
  test.use({ scenario: { ...plansWbs, gated: true } });

  test('the hierarchy grows with each planning step and hides when finalized', async ({ app, scripted }) => {
    await choosePlanningStyle(app, 'wbs');
    await send(app, 'Plan a real-time multiplayer 2048 game');
    const panel = planPanel(app);
    await scripted.release(); // initialize: no items yet, no panel
    await expect(app.getByText(/Created plan|Started plan|plan/i).first()).toBeVisible();
    await expect(panel.region).toHaveCount(0);
    await scripted.release(); // step 1: two phases
    await expectProgress(app, 0, 2);
    await scripted.release(); // step 2: setup tasks nested under 1.0
    await expectProgress(app, 0, 4);
    await expect(panel.step('Setup Firebase')).toBeVisible();
    await scripted.release(); // step 3
    await expectProgress(app, 0, 6);
    await expect(panel.step('Tile Movement Logic')).toHaveAttribute('data-status', 'pending');
    await scripted.release(); // status
    await expectProgress(app, 0, 6);
    await scripted.release(); // finalize → completed → hidden
    await expect(panel.region).toHaveCount(0);
    await scripted.release();
    await expect(app.getByText(/The WBS for Multiplayer 2048 is ready/)).toBeVisible();
    const results = JSON.stringify(scripted.requests.map((r) => r.body));
    expect(results).toContain('outputPath');
    expect(results).toContain('WBS.md');
  });
});

test.describe('session dialect (seed 004)', () => {
  test.use({ scenario: { ...plansSession, gated: true } });

  test('setup, add and update steps until the plan completes itself', async ({ app, scripted }) => {
    await choosePlanningStyle(app, 'session');
    await send(app, 'Add a --verbose flag to the CLI');
    const panel = planPanel(app);
    await scripted.release(); // setup with 2 steps
    await expectProgress(app, 0, 2);
    await scripted.release(); // add a step
    await expectProgress(app, 0, 3);
    await scripted.release(); // 1 in progress
    await expect(panel.step('Parse the flag')).toHaveAttribute('data-status', 'in_progress');
    await scripted.release(); // 1 done
    await expectProgress(app, 1, 3);
    await scripted.release();
    await scripted.release(); // 2 done
    await expectProgress(app, 2, 3);
    await scripted.release();
    await scripted.release(); // 3 done → completed → hidden
    await expect(panel.region).toHaveCount(0);
    await scripted.release(); // read
    await scripted.release(); // text
    await expect(app.getByText(/prints debug output, and the tests pass/)).toBeVisible();
  });
});
