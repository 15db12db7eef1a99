import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startScriptedServer, type ScriptedServer } from '../test-support/scripted-api/server';
import { PLAN_FIRST_ADDED_STEP, PLAN_FIRST_FEEDBACK, PLAN_FIRST_FILES, planFirst } from '../test-support/scenarios/plan-first';
import { expectAccessibleInBothSchemes } from './support/axe';
import { expect, test } from './support/fixtures';
import { expectLoopThenGoalCheck } from './support/goal-check';
import { startPersistentShell } from './support/persistent-shell';
import { planPanel, send } from './support/plan-panel';

// A whole task plan-first in the web shell (issue 14, "done when"): the proposal, one revision,
// the approval, an edit mid-run that Claude follows, a pause and "Continue plan" — every change in
// the panel at once, every name from docs/contract.md §5. Gated: one scripted reply per release().
test.describe.configure({ timeout: 180_000 });

type Body = { messages: { role: string; content: string | { type: string; text?: string }[] }[] };
const lastUserText = (server: ScriptedServer, index: number): string => {
  const last = (server.requests[index]!.body as Body).messages.at(-1)!;
  return typeof last.content === 'string' ? last.content : last.content.map((b) => b.text ?? `[${b.type}]`).join('\n');
};
const requestsReach = (server: ScriptedServer, n: number) => expect.poll(() => server.requests.length, { timeout: 20_000 }).toBe(n);

test('plan first, end to end: propose → revise → approve → an edit Claude follows → paused → continue', async ({ page }) => {
  const scripted = await startScriptedServer({ scenario: { ...planFirst, gated: true } });
  const shell = await startPersistentShell(scripted.url, { settings: { planFirst: true, autoApproveEdits: true }, files: PLAN_FIRST_FILES });
  const workspaceFile = (name: string) => readFileSync(join(shell.current.workspace, name), 'utf8');
  try {
    await page.goto(shell.current.url);
    const panel = planPanel(page);
    const log = page.getByRole('log', { name: 'Conversation', exact: true });
    const button = (name: string) => panel.region.getByRole('button', { name, exact: true });
    await send(page, 'Release 1.1.0 please');

    // Read, a write refused by the tool layer, the proposal, and Claude ends its turn.
    await scripted.release(4);
    await expect(panel.header).toContainText('Proposed');
    await expect(panel.header).toContainText('0/3 steps');
    await expect(button('Approve plan')).toBeEnabled();
    await expect(button('Revise plan')).toBeEnabled();
    const refused = log.getByRole('button', { name: /^write_file/ });
    await expect(refused).toContainText('denied');
    await refused.click();
    await expect(log.getByText(/Not run: this chat is in plan-first mode and the plan awaits the user's approval/)).toBeVisible();
    expect(workspaceFile('version.txt')).toBe('1.0.0\n');
    expect(scripted.requests).toHaveLength(4);
    await expectAccessibleInBothSchemes(page, 'a proposed plan');

    // One revision: "Revise plan" → "Plan feedback" → "Send feedback".
    await button('Revise plan').click();
    await panel.region.getByRole('textbox', { name: 'Plan feedback', exact: true }).fill(PLAN_FIRST_FEEDBACK);
    await expectAccessibleInBothSchemes(page, 'plan feedback');
    await button('Send feedback').click();
    await expect(log.getByText(`Please revise the proposed plan (version 1) and propose it again: ${PLAN_FIRST_FEEDBACK}`)).toBeVisible();
    await scripted.release(2);
    await expect(panel.header).toContainText('0/4 steps');
    await expect(panel.step('Write RELEASE_NOTES.md')).toHaveAttribute('data-status', 'pending');
    await expect(panel.header).toContainText('Proposed');
    expect(scripted.requests).toHaveLength(6);

    // Approve the revised plan: Claude hears which version, and works through it.
    await button('Approve plan').click();
    await expect(log.getByText(/^I approve the plan \(version \d+\)\. Go ahead/)).toBeVisible();
    await expect(button('Approve plan')).toHaveCount(0);
    await expect(panel.header).not.toContainText('Proposed');
    await scripted.release(2);
    // Step 2 runs and Claude's next reply is held: the user adds a step and moves it above the check.
    await requestsReach(scripted, 9);
    await expect(panel.step('Add a 1.1.0 entry to CHANGELOG.md')).toHaveAttribute('data-status', 'in_progress');
    await expect(page.getByRole('button', { name: 'Stop', exact: true })).toBeVisible();
    await button('Add step').click();
    await panel.region.getByRole('textbox', { name: 'New step', exact: true }).fill(PLAN_FIRST_ADDED_STEP);
    await panel.region.getByRole('textbox', { name: 'New step', exact: true }).press('Enter');
    await expect(panel.step(PLAN_FIRST_ADDED_STEP)).toHaveAttribute('data-status', 'pending');
    await expect(panel.header).toContainText('1/5 steps');
    await panel.step(PLAN_FIRST_ADDED_STEP).getByRole('button', { name: 'Edit step', exact: true }).click();
    await expectAccessibleInBothSchemes(page, 'the Edit step menu');
    await panel.step(PLAN_FIRST_ADDED_STEP).getByRole('menuitem', { name: 'Move up', exact: true }).click();
    await expect(panel.steps.nth(3)).toContainText(PLAN_FIRST_ADDED_STEP);
    await expect(panel.steps.nth(4)).toContainText('Check the files');

    // Claude's very next request carries the note; it follows the edit.
    await scripted.release(1);
    await requestsReach(scripted, 10);
    expect(lastUserText(scripted, 9)).toMatch(
      new RegExp(`The user edited the plan: added 5 "${PLAN_FIRST_ADDED_STEP}"; moved 5 "${PLAN_FIRST_ADDED_STEP}" up\\. \\(Plan v\\d+\\.\\)$`),
    );
    await scripted.release(2);
    // The turn ends with steps left: paused, with "Continue plan".
    await expect(panel.header).toContainText('Paused');
    await expect(panel.header).toContainText('3/5 steps');
    await expectAccessibleInBothSchemes(page, 'a paused plan-first plan');
    await button('Continue plan').click();
    await expect(log.getByText('Continue the plan: 2 steps left', { exact: true })).toBeVisible();
    await scripted.release(1);
    await expect(panel.step(PLAN_FIRST_ADDED_STEP)).toHaveAttribute('data-status', 'in_progress');
    await scripted.release(4);
    await expect(log.getByText('Released 1.1.0: version bumped, changelog entry, release notes and a README mention.')).toBeVisible();
    await expect(panel.region).toHaveCount(0);
    // The plan completed: its goal check follows the scripted turns.
    await expectLoopThenGoalCheck(scripted, planFirst.turns.length);
    expect(workspaceFile('version.txt')).toBe('1.1.0\n');
    expect(workspaceFile('README.md')).toContain('1.1.0');
    expect(workspaceFile('RELEASE_NOTES.md')).toContain('Tally 1.1.0');
  } finally {
    await shell.dispose();
    await scripted.close();
  }
});

test('a pending proposal survives a reload, a crash and a restart; nothing is sent until the user answers', async ({ page }) => {
  const scripted = await startScriptedServer({ scenario: { ...planFirst, turns: planFirst.turns.slice(2, 4) } });
  const shell = await startPersistentShell(scripted.url, { settings: { planFirst: true }, files: PLAN_FIRST_FILES });
  try {
    await page.goto(shell.current.url);
    const panel = planPanel(page);
    await send(page, 'Release 1.1.0 please');
    await expect(panel.header).toContainText('Proposed');
    await page.reload();
    await expect(panel.header).toContainText('Proposed');
    // An edit of the proposal is on disk as soon as the panel shows it: a crash right after keeps it.
    await panel.region.getByRole('button', { name: 'Add step', exact: true }).click();
    await panel.region.getByRole('textbox', { name: 'New step', exact: true }).fill('Tag the release');
    await panel.region.getByRole('textbox', { name: 'New step', exact: true }).press('Enter');
    await expect(panel.step('Tag the release')).toHaveAttribute('data-status', 'pending');
    await shell.restart('kill');
    await page.goto(shell.current.url);
    await expect(panel.header).toContainText('Proposed');
    await expect(panel.step('Tag the release')).toHaveAttribute('data-status', 'pending');
    await shell.restart('quit');
    await page.goto(shell.current.url);
    await expect(panel.header).toContainText('Proposed');
    await expect(panel.region.getByRole('button', { name: 'Approve plan', exact: true })).toBeEnabled();
    expect(scripted.requests).toHaveLength(2);
    // After the restart the approval goes through and reaches Claude.
    await panel.region.getByRole('button', { name: 'Approve plan', exact: true }).click();
    await expect(panel.header).not.toContainText('Proposed');
    await expect.poll(() => scripted.requests.length).toBe(3);
    // It names the version the user saw (the edit made it 2), and the edit note rides along.
    const approval = JSON.stringify((scripted.requests[2]!.body as Body).messages.at(-1));
    expect(approval).toContain('I approve the plan (version 2)');
    expect(approval).toContain('The user edited the plan: added 4 \\"Tag the release\\"');
  } finally {
    await shell.dispose();
    await scripted.close();
  }
});

test.describe('the "Plan first" setting', () => {
  test.use({ scenario: { name: 'plan-first-setting', turns: planFirst.turns.slice(2, 4) } });

  test('turned on in Settings, it applies to the current chat while it has no plan', async ({ app }) => {
    await app.getByRole('button', { name: 'Settings', exact: true }).click();
    const dialog = app.getByRole('dialog');
    await dialog.getByRole('checkbox', { name: 'Plan first', exact: true }).check();
    await dialog.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(app.getByRole('dialog')).toHaveCount(0);
    await send(app, 'Release 1.1.0 please');
    const panel = planPanel(app);
    await expect(panel.header).toContainText('Proposed');
    await expect(panel.region.getByRole('button', { name: 'Revise plan', exact: true })).toBeVisible();
  });
});
