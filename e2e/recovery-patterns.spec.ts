import type { Page } from '@playwright/test';
import {
  CONTEXT_FILES,
  PARAMETER_FILES,
  recoveryContextRefresh,
  recoveryParameterRetry,
} from '../test-support/scenarios/recovery-patterns';
import type { ScriptedServer } from '../test-support/scripted-api/server';
import { expect, test } from './support/recovery-fixtures';
import { expectLoopThenGoalCheck } from './support/goal-check';
import { planPanel, send } from './support/plan-panel';

// Seed P4-06's first two recovery patterns with real failing tool calls in a real workspace:
// the failure goes back to Claude with the strategy's hint, Claude's changed call succeeds, the
// step completes with its attempt history in the panel, and nobody is asked anything. Gated: one
// scripted answer per release(), so each request body can be read before the next one.
test.use({ settingsFile: { retryDelayMs: 0, maxRetries: 2 } });

type Block = { type: string; is_error?: boolean; content?: unknown };

/** The tool_result Claude got in request `i` (the last user message's first block). */
function toolResultIn(scripted: ScriptedServer, i: number): { isError: boolean; text: string } {
  const messages = (scripted.requests[i]!.body as { messages: { content: string | Block[] }[] }).messages;
  const block = (messages.at(-1)!.content as Block[])[0]!;
  expect(block.type).toBe('tool_result');
  return { isError: block.is_error === true, text: typeof block.content === 'string' ? block.content : JSON.stringify(block.content) };
}

const releasedSoFar = new WeakMap<ScriptedServer, number>();

/** Releases `count` answers and waits until the loop has sent the request after the last one. */
async function step(scripted: ScriptedServer, count: number) {
  const released = (releasedSoFar.get(scripted) ?? 0) + count;
  releasedSoFar.set(scripted, released);
  await scripted.release(count);
  // Request n+1 carries the tool_result of answer n: wait for it, not just for the count so far.
  await expect.poll(() => scripted.requests.length).toBeGreaterThanOrEqual(released + 1);
}

async function openAttempts(app: Page, title: string) {
  const item = planPanel(app).step(title);
  await item.getByRole('button', { name: /^Details for step/ }).click();
  return item.locator('.plan-attempts').getByRole('listitem');
}

test.describe('parameter retry', () => {
  test.use({ scenario: { ...recoveryParameterRetry, gated: true }, workspaceFiles: PARAMETER_FILES });

  test('a bad line range comes back with a fix; the modified read succeeds and the step completes', async ({ app, scripted }) => {
    const panel = planPanel(app);
    const dialog = app.getByRole('alertdialog');
    await send(app, 'What does report.txt say?');
    await step(scripted, 3); // create_plan, start step 1, read_file with start_line 0
    await expect(panel.step("Read the report's first two lines")).toHaveAttribute('data-status', 'in_progress');

    const failed = toolResultIn(scripted, 3);
    expect(failed.isError).toBe(true);
    expect(failed.text).toContain('Invalid input for read_file: start_line');
    expect(failed.text).toContain('[Waypoint recovery: retry with modification (invalid parameter; step 1 failure 1;');
    expect(failed.text).toContain('lines count from 1, end_line >= start_line');
    expect(failed.text).not.toContain('path relative to the workspace root'); // the fix for this error, not another
    await expect(dialog).toHaveCount(0);

    await step(scripted, 1); // read_file with start_line 1
    const retried = toolResultIn(scripted, 4);
    expect(retried.isError).toBe(false);
    expect(retried.text).toContain('1\tSummary: all green');
    expect(retried.text).toContain('2\tDetails: 3 checks passed');

    await step(scripted, 1); // complete step 1
    await expect(panel.step("Read the report's first two lines")).toHaveAttribute('data-status', 'completed');
    const attempts = await openAttempts(app, "Read the report's first two lines");
    await expect(attempts).toHaveCount(1);
    await expect(attempts.first()).toContainText('read_file — Invalid input for read_file: start_line');
    await expect(attempts.first()).toContainText('(invalid parameter; retry with modification; succeeded;');

    await scripted.release(3); // start 2, complete 2 (the plan completes), final answer
    await expect(app.getByText('The report says: all green, 3 checks passed.')).toBeVisible();
    await expect(panel.region).toHaveCount(0);
    await expect(dialog).toHaveCount(0);
    await expectLoopThenGoalCheck(scripted, 8);
  });
});

test.describe('context refresh', () => {
  test.use({ scenario: { ...recoveryContextRefresh, gated: true }, workspaceFiles: CONTEXT_FILES });

  test('a missing file comes back with "list first"; Claude lists, reads the right file, and the step completes', async ({ app, scripted }) => {
    const panel = planPanel(app);
    const dialog = app.getByRole('alertdialog');
    await send(app, 'Which theme is set?');
    await step(scripted, 3); // create_plan, start step 1, read_file settings.json
    await expect(panel.step('Read the settings file')).toHaveAttribute('data-status', 'in_progress');

    const failed = toolResultIn(scripted, 3);
    expect(failed.isError).toBe(true);
    expect(failed.text).toContain('settings.json does not exist.');
    expect(failed.text).toContain('[Waypoint recovery: refresh context and retry (not found; step 1 failure 1;');
    expect(failed.text).toContain('use list_directory or search_files to find the right path, then retry with it');
    await expect(dialog).toHaveCount(0);

    await step(scripted, 1); // list_directory
    const listed = toolResultIn(scripted, 4);
    expect(listed.isError).toBe(false);
    expect(listed.text).toContain('app-settings.json');

    await step(scripted, 1); // read_file app-settings.json
    const read = toolResultIn(scripted, 5);
    expect(read.isError).toBe(false);
    expect(read.text).toContain('{"theme":"dark"}');

    await step(scripted, 1); // complete step 1
    await expect(panel.step('Read the settings file')).toHaveAttribute('data-status', 'completed');
    const attempts = await openAttempts(app, 'Read the settings file');
    await expect(attempts).toHaveCount(1);
    await expect(attempts.first()).toContainText('read_file — settings.json does not exist.');
    await expect(attempts.first()).toContainText('(not found; refresh context and retry; succeeded;');

    await scripted.release(3);
    await expect(app.getByText('The theme is set to dark (in app-settings.json).')).toBeVisible();
    await expect(panel.region).toHaveCount(0);
    await expect(dialog).toHaveCount(0);
    await expectLoopThenGoalCheck(scripted, 9);
  });
});
