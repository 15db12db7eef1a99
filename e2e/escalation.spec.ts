import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import {
  GUIDANCE_FIXED_TEXT,
  RECOVERY_FILE,
  RECOVERY_FILE_TEXT,
  recoveryEscalationAbort,
  recoveryEscalationGuidance,
  recoveryEscalationSkip,
} from '../test-support/scenarios/recovery-escalation';
import type { ScriptedServer } from '../test-support/scripted-api/server';
import { expect, test } from './support/recovery-fixtures';
import { planPanel, send } from './support/plan-panel';

// Seed P4-06's escalation pattern with real failures: step 1's edit_file names text that is not
// in notes.txt, three times. Gated: one scripted answer per release(), so every state is seen.
test.use({
  settingsFile: { autoApproveEdits: true, retryDelayMs: 0, maxRetries: 2 },
  workspaceFiles: { [RECOVERY_FILE]: RECOVERY_FILE_TEXT },
});

type Block = { type: string; is_error?: boolean; content?: unknown };
const lastUserBlocks = (scripted: ScriptedServer, i: number): Block[] => {
  const messages = (scripted.requests[i]!.body as { messages: { content: string | Block[] }[] }).messages;
  const last = messages.at(-1)!.content;
  return typeof last === 'string' ? [] : last;
};

/** Sends the task and releases create, start and the three failing edits; returns the dialog. */
async function reachEscalation(app: Page, scripted: ScriptedServer) {
  const panel = planPanel(app);
  await send(app, 'Tidy notes.txt');
  await scripted.release(2); // create_plan, start step 1
  await expect(panel.step('Fix the greeting typo')).toHaveAttribute('data-status', 'in_progress');
  const dialog = app.getByRole('alertdialog', { name: /needs your attention/ });
  for (let failure = 1; failure <= 2; failure++) {
    await scripted.release();
    // A failure within maxRetries goes back to Claude as an is_error result: no question yet.
    await expect.poll(() => scripted.requests.length).toBe(3 + failure);
    expect(lastUserBlocks(scripted, 2 + failure)[0]).toMatchObject({ type: 'tool_result', is_error: true });
    await expect(dialog).toHaveCount(0);
  }
  await scripted.release(); // the third failing edit
  await expect(dialog).toBeVisible();
  await expect(dialog).toHaveAccessibleName('Step 1 needs your attention');
  expect(scripted.requests).toHaveLength(5);
  // In the plan panel above the steps (always in view), the stuck step marked, with the error and every attempt.
  await expect(panel.region.getByRole('alertdialog')).toBeVisible();
  await expect(panel.step('Fix the greeting typo')).toContainText('needs your answer');
  await expect(dialog).toContainText('old_text was not found in notes.txt');
  await expect(dialog.getByRole('listitem')).toHaveCount(3);
  await expect(dialog).toBeFocused();
  for (const name of ['Skip step', 'Abort plan', 'Send guidance']) await expect(dialog.getByRole('button', { name })).toBeVisible();
  await expect(dialog.getByRole('textbox', { name: 'Guidance', exact: true })).toBeVisible();
  return { dialog, panel };
}

test.describe('skip', () => {
  test.use({ scenario: { ...recoveryEscalationSkip, gated: true } });

  test('"Skip step" skips it with the reason, tells Claude, and the run continues', async ({ app, scripted }) => {
    const { dialog, panel } = await reachEscalation(app, scripted);
    await dialog.getByRole('button', { name: 'Skip step', exact: true }).click();
    await expect(dialog).toHaveCount(0);
    await expect(panel.step('Fix the greeting typo')).toHaveAttribute('data-status', 'skipped');
    await scripted.release(); // start step 2
    await expect(panel.step('Check the second line')).toHaveAttribute('data-status', 'in_progress');
    const told = lastUserBlocks(scripted, 5)[0]!;
    expect(told).toMatchObject({ type: 'tool_result', is_error: true });
    expect(String(told.content)).toContain('The user chose to skip step 1');
    await scripted.release(2); // read, complete step 2 → the plan completes and the panel hides
    await expect(panel.region).toHaveCount(0);
    await scripted.release();
    await expect(app.getByText('Step 1 was skipped as you asked; step 2 is done.')).toBeVisible();
  });
});

test.describe('abort', () => {
  test.use({ scenario: { ...recoveryEscalationAbort, gated: true } });

  test('"Abort plan" cancels the plan, hides the panel and sends nothing until the user writes', async ({ app, scripted, shell }) => {
    const { dialog, panel } = await reachEscalation(app, scripted);
    await dialog.getByRole('button', { name: 'Abort plan', exact: true }).click();
    // It asks first: nothing is aborted until the user says so.
    const confirm = dialog.getByRole('group', { name: 'Abort the plan?', exact: true });
    await expect(confirm.getByRole('button', { name: 'Keep the plan', exact: true })).toBeFocused();
    await expect(panel.region).toBeVisible();
    await confirm.getByRole('button', { name: 'Yes, abort the plan', exact: true }).click();
    await expect(panel.region).toHaveCount(0);
    await expect(dialog).toHaveCount(0);
    await expect(app.getByRole('button', { name: 'Send', exact: true })).toBeVisible(); // idle again
    await app.waitForTimeout(300);
    expect(scripted.requests).toHaveLength(5);
    expect(readFileSync(join(shell.workspace, RECOVERY_FILE), 'utf8')).toBe(RECOVERY_FILE_TEXT);

    await send(app, 'What happened?');
    await scripted.release(); // echo
    await expect(app.getByText('You said: What happened?')).toBeVisible();
    const blocks = lastUserBlocks(scripted, 5);
    expect(blocks[0]).toMatchObject({ type: 'tool_result', is_error: true });
    expect(String(blocks[0]!.content)).toContain('The user aborted the plan');
  });
});

test.describe('guidance', () => {
  test.use({ scenario: { ...recoveryEscalationGuidance, gated: true } });

  test('"Send guidance" hands the text to Claude and the step is in progress again', async ({ app, scripted, shell }) => {
    const { dialog, panel } = await reachEscalation(app, scripted);
    const box = dialog.getByRole('textbox', { name: 'Guidance', exact: true });
    await dialog.getByRole('button', { name: 'Send guidance', exact: true }).click();
    await expect(dialog.getByRole('alert')).toContainText('Write how Claude should proceed'); // empty guidance is refused
    await box.fill('The file says "Hello wrld": replace exactly that.');
    await dialog.getByRole('button', { name: 'Send guidance', exact: true }).click();
    await expect(dialog).toHaveCount(0);
    await expect(panel.step('Fix the greeting typo')).toHaveAttribute('data-status', 'in_progress');
    await scripted.release(); // the guided edit
    await expect.poll(() => readFileSync(join(shell.workspace, RECOVERY_FILE), 'utf8')).toBe(GUIDANCE_FIXED_TEXT);
    expect(String(lastUserBlocks(scripted, 5)[0]!.content)).toContain('The file says "Hello wrld": replace exactly that.');
    await scripted.release(); // complete step 1
    await expect(panel.step('Fix the greeting typo')).toHaveAttribute('data-status', 'completed');
    await scripted.release(4);
    await expect(app.getByText('Thanks for the pointer: the greeting is fixed and step 2 is done.')).toBeVisible();
  });
});
