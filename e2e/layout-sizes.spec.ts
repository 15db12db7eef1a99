import type { Page } from '@playwright/test';
import { plansShowcase } from '../test-support/scenarios/plans-showcase';
import { RECOVERY_FILE, RECOVERY_FILE_TEXT, recoveryEscalationSkip } from '../test-support/scenarios/recovery-escalation';
import type { Scenario } from '../test-support/scripted-api/scenario';
import { expectAccessible, expectAccessibleInBothSchemes } from './support/axe';
import { expectFullyInView, expectNoSidewaysScroll } from './support/in-view';
import { expectProgress, planPanel, send } from './support/plan-panel';
import { expect, test } from './support/recovery-fixtures';

// Layouts hold at every size, in both themes: nothing runs off the right edge, a question that
// blocks the run is wholly in view, and a narrow window keeps the chats behind a "Chats" button.
// Each axe run takes seconds on a busy machine, hence the longer timeout.
test.describe.configure({ timeout: 240_000 });

const WIDTHS = [400, 800, 1280, 1920] as const;

/** The message box's placeholder fits in the box (measured in the box's own font). */
async function placeholderFits(page: Page): Promise<{ text: number; box: number }> {
  return page.getByRole('textbox', { name: 'Message', exact: true }).evaluate((el) => {
    const box = el as HTMLTextAreaElement;
    const style = getComputedStyle(box);
    const context = document.createElement('canvas').getContext('2d')!;
    context.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
    const room = box.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    return { text: Math.ceil(context.measureText(box.placeholder).width), box: Math.floor(room) };
  });
}

test.describe('every width, both themes', () => {
  test.use({ scenario: { ...plansShowcase, gated: true } });

  test('400, 800, 1280 and 1920 px: no sideways scroll, composer whole, chats reachable, axe clean', async ({ app, scripted }) => {
    await send(app, `Add a dark mode toggle. Here is the old log:\n${'2025-01-01 INFO a line of the old log\n'.repeat(400)}`);
    await scripted.release(8); // the plan, two steps done, step 6 added and started
    await expectProgress(app, 2, 6);
    const chatsButton = app.getByRole('button', { name: 'Chats', exact: true });
    const chats = app.getByRole('navigation', { name: 'Chats', exact: true });

    for (const width of WIDTHS) {
      await app.setViewportSize({ width, height: 800 });
      const where = `${width} px`;
      await expectNoSidewaysScroll(app, where);
      const { text, box } = await placeholderFits(app);
      expect(text, `${where}: the placeholder (${text} px) fits the message box (${box} px)`).toBeLessThanOrEqual(box);
      await expectFullyInView(app.getByRole('button', { name: 'Send', exact: true }), `${where}: Send`);
      const plan = await planPanel(app).region.boundingBox();
      expect(plan!.x + plan!.width, `${where}: the plan's right edge`).toBeLessThanOrEqual(width);
      if (width < 700) {
        await expect(chatsButton).toHaveAttribute('aria-expanded', 'false');
        await expect(chats).toBeHidden();
      } else {
        await expect(chatsButton).toBeHidden();
        await expect(chats).toBeVisible();
      }
      await expectAccessibleInBothSchemes(app, `chat with a plan at ${where}`);
    }
  });

  test('at 400 px the chats are behind "Chats", by keyboard and by mouse', async ({ app, scripted }) => {
    await app.setViewportSize({ width: 400, height: 800 });
    await send(app, 'Add a dark mode toggle.');
    await scripted.release(2);
    await expect(planPanel(app).region).toBeVisible();
    const chatsButton = app.getByRole('button', { name: 'Chats', exact: true });
    const chats = app.getByRole('navigation', { name: 'Chats', exact: true });

    // Keyboard: open, walk through New chat, search and the chat, close with Escape.
    await chatsButton.focus();
    await app.keyboard.press('Enter');
    await expect(chatsButton).toHaveAttribute('aria-expanded', 'true');
    await expect(chats).toBeVisible();
    await expect(chats.getByRole('button', { name: 'New chat', exact: true })).toBeFocused();
    await app.keyboard.press('Tab');
    await expect(chats.getByRole('searchbox', { name: 'Search chats', exact: true })).toBeFocused();
    await app.keyboard.press('Tab');
    await expect(chats.getByRole('button', { name: /Add a dark mode toggle/ })).toBeFocused();
    await expectFullyInView(chats.getByRole('button', { name: 'New chat', exact: true }), 'New chat in the drawer');
    await expectAccessibleInBothSchemes(app, 'the chats drawer at 400 px');
    await app.keyboard.press('Escape');
    await expect(chatsButton).toHaveAttribute('aria-expanded', 'false');
    await expect(chats).toBeHidden();
    await expect(chatsButton).toBeFocused();

    // Mouse: New chat from the drawer, then back to the first chat from the list.
    await chatsButton.click();
    await chats.getByRole('button', { name: 'New chat', exact: true }).click();
    await expect(app.getByRole('heading', { level: 1 })).toHaveText('New chat');
    await expect(chats).toBeHidden();
    await chatsButton.click();
    await chats.getByRole('button', { name: /Add a dark mode toggle/ }).click();
    await expect(app.getByRole('heading', { level: 1 })).toContainText('Add a dark mode toggle');
    await expect(chats).toBeHidden();
    await expect(app.getByRole('textbox', { name: 'Message', exact: true })).toBeFocused();
  });
});

const WIDE_LINE = `export const routes = [${Array.from({ length: 40 }, (_, i) => `'/section-${i}/page'`).join(',')}];`;
const LONG_PATH = `src/${'deeply-nested-folder/'.repeat(14)}index.ts`;
const wideEdit: Scenario = {
  name: 'wide-dry-run',
  onExhausted: 'echo',
  turns: [
    {
      kind: 'tool_use',
      calls: [
        {
          name: 'create_plan',
          input: { goal: `Shorten ${LONG_PATH}`, steps: [{ step_number: 1, description: `Edit ${LONG_PATH}` }, { step_number: 2, description: 'Check it' }] },
        },
      ],
    },
    { kind: 'tool_use', calls: [{ name: 'update_plan', input: { action: 'start_step', step_number: 1 } }] },
    { kind: 'tool_use', calls: [{ name: 'edit_file', input: { path: 'routes.js', old_text: WIDE_LINE, new_text: WIDE_LINE.replace('section-0', 'home') } }] },
    { kind: 'text', text: 'Done.' },
  ],
};

test.describe('a long dry-run line', () => {
  test.use({ scenario: wideEdit, workspaceFiles: { 'routes.js': `${WIDE_LINE}\n` } });

  test('wraps inside the approval card; neither it nor the Task plan runs off the window (1280x800)', async ({ app }) => {
    await send(app, 'Shorten the routes');
    const card = app.getByRole('alertdialog', { name: /Approve/ });
    await expect(card.locator('[data-diff="add"]')).toContainText('home');
    await expectNoSidewaysScroll(app, 'approval with a 900-character line');
    for (const [what, box] of [
      ['the approval card', await card.boundingBox()],
      ['the Task plan', await planPanel(app).region.boundingBox()],
    ] as const) {
      expect(box!.x, what).toBeGreaterThanOrEqual(0);
      expect(box!.x + box!.width, `${what}'s right edge`).toBeLessThanOrEqual(1280 - 16);
    }
    for (const name of ['Approve', 'Deny']) await expectFullyInView(card.getByRole('button', { name, exact: true }), name);
    await expectAccessibleInBothSchemes(app, 'approval with a long line');
    await card.getByRole('button', { name: 'Approve', exact: true }).click();
    await expect(app.getByRole('log', { name: 'Conversation', exact: true }).getByText('Done.')).toBeVisible();
  });
});

test.describe('a question that blocks the run', () => {
  test.use({
    scenario: { ...recoveryEscalationSkip, gated: true },
    settingsFile: { autoApproveEdits: true, retryDelayMs: 0, maxRetries: 2 },
    workspaceFiles: { [RECOVERY_FILE]: RECOVERY_FILE_TEXT },
  });

  test('is wholly in view at 1280x800 with the plan open: the answers are never below the fold', async ({ app, scripted }) => {
    await send(app, 'Tidy notes.txt');
    await scripted.release(5); // create, start step 1, three failing edits
    const panel = planPanel(app);
    const dialog = panel.region.getByRole('alertdialog', { name: 'Step 1 needs your attention', exact: true });
    await expect(dialog).toBeFocused();
    await expect(panel.header).toHaveAttribute('aria-expanded', 'true');
    await expect(panel.step('Fix the greeting typo')).toContainText('needs your answer');
    const controls = [
      dialog.getByRole('heading', { name: 'Step 1 needs your attention', exact: true }),
      dialog.getByRole('textbox', { name: 'Guidance', exact: true }),
      dialog.getByRole('button', { name: 'Send guidance', exact: true }),
      dialog.getByRole('button', { name: 'Skip step', exact: true }),
      dialog.getByRole('button', { name: 'Abort plan', exact: true }),
    ];
    for (const control of controls) await expectFullyInView(control, (await control.textContent()) || 'Guidance');
    await expectAccessible(app, 'escalation at 1280x800', 'light');
    await expectAccessible(app, 'escalation at 1280x800', 'dark');

    // Sending empty guidance adds a line of help: the answers still stay in view.
    await dialog.getByRole('button', { name: 'Send guidance', exact: true }).click();
    await expect(dialog.getByRole('alert')).toContainText('Write how Claude should proceed');
    for (const control of controls.slice(1)) await expectFullyInView(control, 'after the help line');

    await dialog.getByRole('button', { name: 'Skip step', exact: true }).click();
    await expect(dialog).toHaveCount(0);
  });
});
