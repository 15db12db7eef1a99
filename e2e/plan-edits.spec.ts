import type { Scenario } from '../test-support/scripted-api/scenario';
import { expectAccessibleInBothSchemes } from './support/axe';
import { expect, test } from './support/fixtures';
import { planPanel, send } from './support/plan-panel';

// Editing the plan while Claude works (docs/contract.md §5, "Editing the plan"): every edit through its
// accessible name, shown in the panel at once; a bad title is refused in words with nothing
// changed; Claude's next request carries one clause per edit, and its call to start a step the
// user skipped comes back as a tool error saying so.
test.describe.configure({ timeout: 120_000 });

const steps = ['Read the code', 'Change the parser', 'Update the docs', 'Clean up', 'Run the tests'];
const scenario: Scenario = {
  name: 'plan-edits',
  gated: true,
  turns: [
    {
      kind: 'tool_use',
      text: 'Planning the parser change.',
      calls: [
        { name: 'create_plan', input: { goal: 'Fix the parser', steps: steps.map((description, i) => ({ step_number: i + 1, description })) } },
        { name: 'update_plan', input: { action: 'start_step', step_number: 1 } },
      ],
    },
    { kind: 'tool_use', calls: [{ name: 'update_plan', input: { action: 'start_step', step_number: 3 } }] },
    { kind: 'text', text: 'Understood: I will leave the docs alone.' },
  ],
};

test.describe('editing the plan', () => {
  test.use({ scenario });

  test('rename, skip, delete, move and add while Claude works; Claude hears of each in its next request', async ({ app, scripted }) => {
    const panel = planPanel(app);
    const editStep = async (title: string, action: string) => {
      await panel.step(title).getByRole('button', { name: 'Edit step', exact: true }).click();
      await panel.step(title).getByRole('menuitem', { name: action, exact: true }).click();
    };
    const titles = () => panel.steps.locator('.plan-step-title').allTextContents();
    await send(app, 'Fix the parser');
    await scripted.release(1);
    await expect(panel.step('Read the code')).toHaveAttribute('data-status', 'in_progress');
    // Claude's next reply is held: it "works" while the user edits.
    await expect.poll(() => scripted.requests.length).toBe(2);
    await expect(app.getByRole('button', { name: 'Stop', exact: true })).toBeVisible();

    // Rename: a bad title is refused in words and nothing changes; Enter saves a good one.
    await editStep('Change the parser', 'Rename');
    const titleBox = panel.region.getByRole('textbox', { name: 'Step title', exact: true });
    await expect(titleBox).toHaveValue('Change the parser');
    await expectAccessibleInBothSchemes(app, 'renaming a step');
    await titleBox.fill('   ');
    await titleBox.press('Enter');
    await expect(panel.region.getByRole('alert')).toHaveText(/The new title is empty/);
    await titleBox.fill('x'.repeat(501));
    await titleBox.press('Enter');
    await expect(panel.region.getByRole('alert')).toHaveText(/501 characters long; the limit is 500/);
    await titleBox.press('Escape');
    await expect.poll(titles).toEqual(steps);
    await editStep('Change the parser', 'Rename');
    await titleBox.fill('Fix the tokenizer');
    await titleBox.press('Enter');
    await expect(panel.step('Fix the tokenizer')).toHaveAttribute('data-status', 'pending');
    await expect(panel.region.getByRole('alert')).toHaveCount(0);

    // Skip, delete, move up, and the ends: "Move up" is not offered to the first pending step.
    await editStep('Update the docs', 'Skip');
    await expect(panel.step('Update the docs')).toHaveAttribute('data-status', 'skipped');
    await editStep('Clean up', 'Delete');
    await expect(panel.step('Clean up')).toHaveCount(0);
    // It swaps places with the nearest pending step above (2); the skipped step between stays put.
    await editStep('Run the tests', 'Move up');
    await expect.poll(titles).toEqual(['Read the code', 'Run the tests', 'Update the docs', 'Fix the tokenizer']);
    // Every step's button has the same name; its description is the step it edits.
    await expect(panel.step('Run the tests').getByRole('button', { name: 'Edit step', exact: true })).toHaveAccessibleDescription(/Run the tests/);
    await panel.step('Run the tests').getByRole('button', { name: 'Edit step', exact: true }).click();
    await expect(panel.step('Run the tests').getByRole('menuitem')).toHaveText(['Rename', 'Skip', 'Delete', 'Move down']);
    await app.keyboard.press('Escape');
    await expect(panel.step('Run the tests').getByRole('menu')).toHaveCount(0);
    await expect(panel.step('Run the tests').getByRole('button', { name: 'Edit step', exact: true })).toBeFocused();

    // Add step: at the end, pending, with the next id.
    await panel.region.getByRole('button', { name: 'Add step', exact: true }).click();
    await panel.region.getByRole('textbox', { name: 'New step', exact: true }).fill('Write a changelog entry');
    await panel.region.getByRole('textbox', { name: 'New step', exact: true }).press('Enter');
    await expect(panel.steps.last()).toContainText('Write a changelog entry');
    await expect(panel.step('Write a changelog entry')).toHaveAttribute('data-status', 'pending');
    await expect(panel.header).toContainText('0/5 steps');

    // The reload shows the same plan: every edit is in the chat's log.
    await app.reload();
    await expect.poll(titles).toEqual(['Read the code', 'Run the tests', 'Update the docs', 'Fix the tokenizer', 'Write a changelog entry']);

    await scripted.release(1);
    await expect.poll(() => scripted.requests.length).toBe(3);
    const body = scripted.requests[2]!.body as { messages: { content: { type: string; text?: string; content?: unknown; is_error?: boolean }[] }[] };
    const last = body.messages.at(-1)!.content;
    expect(last.at(-1)?.text).toMatch(
      /^The user edited the plan: renamed 2 "Change the parser" to "Fix the tokenizer"; skipped 3 "Update the docs"; deleted 4 "Clean up"; moved 5 "Run the tests" up; added 6 "Write a changelog entry"\. \(Plan v\d+\.\)$/,
    );
    // Claude's reply to the held request tried to start the skipped step: refused, saying so, in the same request.
    expect(last[0]).toMatchObject({ type: 'tool_result', is_error: true });
    expect(String(last[0]?.content)).toMatch(/^The user skipped step 3 "Update the docs", so it can't be started/);
    await scripted.release(1);
    await expect(app.getByRole('log', { name: 'Conversation', exact: true }).getByText('Understood: I will leave the docs alone.')).toBeVisible();
    await expect(panel.step('Update the docs')).toHaveAttribute('data-status', 'skipped');
  });
});

test.describe('two tabs editing at once', () => {
  test.use({
    scenario: {
      name: 'plan-edits-two-tabs',
      turns: [
        { kind: 'tool_use', calls: [{ name: 'create_plan', input: { goal: 'Fix the parser', steps: steps.map((description, i) => ({ step_number: i + 1, description })) } }] },
        { kind: 'text', text: 'Here is the plan.' },
      ],
    },
  });

  test("a rename made on what one tab saw never silently overwrites the other tab's rename", async ({ app, shell }) => {
    await send(app, 'Fix the parser');
    const first = planPanel(app);
    await expect(first.step('Update the docs')).toHaveAttribute('data-status', 'pending');
    const other = await app.context().newPage();
    await other.goto(shell.url);
    const second = planPanel(other);
    const rename = async (panel: typeof first, title: string) => {
      await panel.step(title).getByRole('button', { name: 'Edit step', exact: true }).click();
      await panel.step(title).getByRole('menuitem', { name: 'Rename', exact: true }).click();
      return panel.region.getByRole('textbox', { name: 'Step title', exact: true });
    };
    // Both tabs open "Rename" on step 3; the first saves.
    const firstBox = await rename(first, 'Update the docs');
    const secondBox = await rename(second, 'Update the docs');
    await firstBox.fill('Update the README');
    await firstBox.press('Enter');
    await expect(first.step('Update the README')).toBeVisible();
    // The second tab's rename was made on the older plan: refused in words, nothing changed.
    await secondBox.fill('Update the user guide');
    await secondBox.press('Enter');
    await expect(second.region.getByRole('alert')).toHaveText(/The plan changed since you looked at it \(renamed 3 "Update the docs" to "Update the README"\)/);
    await expect(first.step('Update the README')).toBeVisible();
    await expect(first.step('Update the user guide')).toHaveCount(0);
    // Having read why, Enter again applies it to the plan as it is now.
    await secondBox.press('Enter');
    await expect(second.step('Update the user guide')).toBeVisible();
    await expect(first.step('Update the user guide')).toBeVisible();
    await expect(second.region.getByRole('alert')).toHaveCount(0);
  });
});
