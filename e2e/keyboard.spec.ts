import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from './support/fixtures';
import { MOD, focusInfo, tabUntil } from './support/keyboard';
import { planPanel } from './support/plan-panel';

// The whole flow with the keyboard only: reach the message box, type, send, stop, new chat,
// toggle the plan panel, open and close Settings, answer an approval. Gated: one scripted answer
// per release(), so each state is seen.
const STORY = 'Once upon a time there was a very patient planner. '.repeat(40);
const NOTES = '# Notes\n\nWritten with the keyboard only.\n';

test.use({
  scenario: {
    name: 'keyboard-flow',
    gated: true,
    turns: [
      { kind: 'text', text: STORY, chunkChars: 4, delayMs: 30 },
      {
        kind: 'tool_use',
        text: "I'll plan it.",
        calls: [
          {
            name: 'create_plan',
            input: {
              goal: 'Write the notes',
              steps: [
                { step_number: 1, description: 'Write NOTES.md' },
                { step_number: 2, description: 'Read it back' },
              ],
            },
          },
        ],
      },
      { kind: 'tool_use', calls: [{ name: 'update_plan', input: { action: 'start_step', step_number: 1 } }] },
      { kind: 'tool_use', calls: [{ name: 'write_file', input: { path: 'NOTES.md', content: NOTES } }] },
      { kind: 'tool_use', calls: [{ name: 'update_plan', input: { action: 'complete_step', step_number: 1, result: 'Written' } }] },
      { kind: 'text', text: 'NOTES.md is written.' },
    ],
  },
});

test('a whole flow with the keyboard only', async ({ app, scripted, shell }) => {
  const message = app.getByRole('textbox', { name: 'Message', exact: true });
  const log = app.getByRole('log', { name: 'Conversation', exact: true });
  const panel = planPanel(app);
  await expect(message).toBeVisible();
  await expect(message).toBeFocused(); // the cursor starts in the message box

  // Tab from the top of the page to the message box; every stop on the way shows a focus ring.
  await app.locator('.brand').click(); // start at the top of the page (the name, not a control)
  const { visited, missing } = await tabUntil(app, () => message.evaluate((el) => el === document.activeElement));
  expect(visited).toEqual(expect.arrayContaining(['button[New chat]', 'button[Keyboard shortcuts]', 'button[Settings]']));
  expect(missing).toEqual([]);

  // Type and send with Enter; Escape in the message box stops Claude mid-reply.
  await app.keyboard.type('Tell me a long story');
  await app.keyboard.press('Enter');
  await scripted.release();
  await expect(log.getByText(/Once upon a time/)).toBeVisible();
  await expect(app.getByRole('button', { name: 'Stop', exact: true })).toBeVisible();
  await app.keyboard.press('Escape');
  await expect(app.getByRole('button', { name: 'Stop', exact: true })).toHaveCount(0);
  await expect(log.getByText(/stopped/i).first()).toBeVisible();
  expect((await log.textContent())?.length ?? 0).toBeLessThan(STORY.length);

  // Ctrl+Shift+O: a new chat, and the cursor is in its message box.
  await app.keyboard.press(`${MOD}+Shift+O`);
  await expect(log.getByText(/Once upon a time/)).toHaveCount(0);
  await expect(app.getByRole('heading', { level: 1 })).toHaveText('New chat');
  await expect(message).toBeFocused();

  // Ctrl+Enter sends too; the plan appears; Ctrl+Shift+L collapses and expands it.
  await app.keyboard.type('Plan and write the notes');
  await app.keyboard.press(`${MOD}+Enter`);
  await scripted.release(2); // create_plan, start step 1
  await expect(panel.step('Write NOTES.md')).toHaveAttribute('data-status', 'in_progress');
  await expect(panel.header).toHaveAttribute('aria-expanded', 'true');
  await app.keyboard.press(`${MOD}+Shift+L`);
  await expect(panel.header).toHaveAttribute('aria-expanded', 'false');
  await expect(panel.steps).toHaveCount(0);
  await app.keyboard.press(`${MOD}+Shift+L`);
  await expect(panel.header).toHaveAttribute('aria-expanded', 'true');
  await expect(panel.steps).toHaveCount(2);
  await expect(message).toBeFocused(); // toggling never steals the cursor

  // Ctrl+, opens Settings with focus inside; Escape closes it (and stops nothing); focus returns.
  await app.keyboard.press(`${MOD}+,`);
  const settings = app.getByRole('dialog', { name: 'Settings', exact: true });
  await expect(settings).toBeVisible();
  expect(await settings.evaluate((el) => el.contains(document.activeElement))).toBe(true);
  await app.keyboard.press('Escape');
  await expect(settings).toHaveCount(0);
  await expect(message).toBeFocused();

  // The approval takes focus when it appears; Tab leaves it, Ctrl+Shift+A comes back, Enter approves.
  await scripted.release(); // write_file → approval
  const approval = app.getByRole('alertdialog', { name: /Approve/ });
  await expect(approval).toBeFocused();
  expect((await tabUntil(app, () => message.evaluate((el) => el === document.activeElement), 10)).missing).toEqual([]);
  await app.keyboard.press(`${MOD}+Shift+A`);
  await expect(approval).toBeFocused();
  await app.keyboard.press('Tab');
  await expect(approval.getByRole('button', { name: 'Approve', exact: true })).toBeFocused();
  expect((await focusInfo(app)).ring).toBe(true);
  await app.keyboard.press('Enter');
  await expect(approval).toHaveCount(0);
  // The write lands after the approval card goes (a throw inside poll is not retried, so wait for the file).
  const notes = join(shell.workspace, 'NOTES.md');
  await expect.poll(() => (existsSync(notes) ? readFileSync(notes, 'utf8') : null)).toBe(NOTES);
  await scripted.release(2);
  await expect(panel.step('Write NOTES.md')).toHaveAttribute('data-status', 'completed');
  await expect(log.getByText('NOTES.md is written.')).toBeVisible();
});

test('the shortcuts list opens from the ? button and with Ctrl+/, shows the real keys, and Escape closes it', async ({ app }) => {
  const button = app.getByRole('button', { name: 'Keyboard shortcuts', exact: true });
  await button.focus();
  await app.keyboard.press('Enter');
  const dialog = app.getByRole('dialog', { name: 'Keyboard shortcuts', exact: true });
  await expect(dialog).toBeVisible();
  const row = (name: RegExp) => dialog.getByRole('row').filter({ has: app.getByRole('rowheader', { name }) });
  await expect(row(/^Send the message/)).toContainText('Enter or Ctrl+Enter');
  await expect(row(/^Stop Claude/)).toContainText('Escape');
  await expect(row(/^New chat/)).toContainText('Ctrl+Shift+O');
  await expect(row(/^Collapse or expand the Task plan/)).toContainText('Ctrl+Shift+L');
  await expect(row(/^Go to the question/)).toContainText('Ctrl+Shift+A');
  // A tab keeps Ctrl+F for the browser's own find; find in chat is Ctrl+Shift+F here.
  await expect(row(/^Find in chat/)).toHaveText(/Ctrl\s*\+\s*Shift\s*\+\s*F$/);
  await app.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await expect(button).toBeFocused();
  await app.getByRole('textbox', { name: 'Message', exact: true }).focus();
  await app.keyboard.press(`${MOD}+/`);
  await expect(dialog).toBeVisible();
});
