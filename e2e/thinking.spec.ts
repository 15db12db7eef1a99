import { SEED_GRID_PLAN } from '../test-support/main/seed-tool-calls';
import { startScriptedServer } from '../test-support/scripted-api/server';
import { expectAccessibleInBothSchemes } from './support/axe';
import { expect, test } from './support/fixtures';
import { startPersistentShell } from './support/persistent-shell';

// Extended thinking as a person uses it (docs/contract.md §5 "Thinking"): Settings "Extended thinking"
// on, the next message asks Claude to think, and each thinking block of the reply is a button
// "Thinking", collapsed until opened, that shows its text.
test.describe.configure({ timeout: 120_000 });

const THOUGHT = 'The user wants a haiku about rivers. Five, seven, five syllables; water imagery.';

test.describe('thinking', () => {
  test.use({
    scenario: {
      name: 'thinking',
      turns: [
        { kind: 'text', text: 'No thinking asked for, none shown.', thinking: ['never sent'] },
        { kind: 'text', text: 'Water finds its way\nthrough the stones of the old mill\nspring carries it home', thinking: [THOUGHT, 'Check the count once more.'], chunkChars: 4, delayMs: 10 },
      ],
    },
  });

  test('turned on in Settings, the next reply shows its thinking collapsed, and it opens', async ({ app, scripted }) => {
    const log = app.getByRole('log', { name: 'Conversation', exact: true });
    await app.getByRole('textbox', { name: 'Message', exact: true }).fill('Hello');
    await app.keyboard.press('Enter');
    await expect(log.getByText('No thinking asked for, none shown.')).toBeVisible();
    await expect(log.getByRole('button', { name: 'Thinking', exact: true })).toHaveCount(0);

    await app.getByRole('button', { name: 'Settings', exact: true }).click();
    const dialog = app.getByRole('dialog', { name: 'Settings', exact: true });
    const thinking = dialog.getByRole('checkbox', { name: 'Extended thinking', exact: true });
    await expect(thinking).not.toBeChecked();
    await thinking.check();
    // The default model decides how much to think: effort, not a budget.
    await dialog.getByLabel('Thinking effort', { exact: true }).selectOption('medium');
    await expectAccessibleInBothSchemes(app, 'settings with extended thinking');
    await dialog.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(dialog).toHaveCount(0);

    await app.getByRole('textbox', { name: 'Message', exact: true }).fill('Write a haiku about rivers');
    await app.keyboard.press('Enter');
    const toggles = log.getByRole('button', { name: 'Thinking', exact: true });
    await expect(toggles).toHaveCount(2);
    await expect(log.getByText('spring carries it home')).toBeVisible();
    await expect(toggles.first()).toHaveAttribute('aria-expanded', 'false');
    await expect(log.getByText(THOUGHT)).toBeHidden();
    await toggles.first().click();
    await expect(toggles.first()).toHaveAttribute('aria-expanded', 'true');
    await expect(log.getByText(THOUGHT)).toBeVisible();
    await expect(log.getByText('Check the count once more.')).toBeHidden();
    await expectAccessibleInBothSchemes(app, 'a reply with thinking, one block open');

    const body = scripted.requests[1]!.body as { thinking?: unknown; output_config?: unknown };
    expect(body.thinking).toEqual({ type: 'adaptive', display: 'summarized' });
    expect(body.output_config).toEqual({ effort: 'medium' });
    expect((scripted.requests[0]!.body as { thinking?: unknown }).thinking).toBeUndefined();

    // The thinking is in the chat's log: a reload shows it again, collapsed.
    await app.reload();
    const again = app.getByRole('log', { name: 'Conversation', exact: true }).getByRole('button', { name: 'Thinking', exact: true });
    await expect(again).toHaveCount(2);
    await expect(again.first()).toHaveAttribute('aria-expanded', 'false');
  });
});

test.describe('thinking in a tool loop', () => {
  const PLAN = 'The user wants the notes saved. Write NOTES.md, then confirm.';
  test('a fixed budget for a model that takes one; the thinking goes back exactly as received across an approval and a restart', async ({ page }) => {
    const scripted = await startScriptedServer({
      scenario: {
        name: 'thinking-loop',
        turns: [
          { kind: 'tool_use', thinking: [PLAN], redacted: 1, text: 'Saving them.', calls: [{ name: 'write_file', input: { path: 'NOTES.md', content: '# Notes\n' } }] },
          { kind: 'text', text: 'Saved NOTES.md.', thinking: ['The write succeeded; say so.'] },
        ],
      },
    });
    const shell = await startPersistentShell(scripted.url);
    try {
      await page.goto(shell.current.url);
      await page.getByRole('button', { name: 'Settings', exact: true }).click();
      const dialog = page.getByRole('dialog', { name: 'Settings', exact: true });
      await dialog.getByLabel('Model', { exact: true }).selectOption({ label: 'Claude Sonnet 4.5' });
      await dialog.getByRole('checkbox', { name: 'Extended thinking', exact: true }).check();
      // This model takes a fixed budget, not an effort.
      await expect(dialog.getByLabel('Thinking effort', { exact: true })).toHaveCount(0);
      await dialog.getByLabel('Thinking budget (tokens)', { exact: true }).fill('2048');
      await dialog.getByRole('button', { name: 'Save', exact: true }).click();
      await expect(dialog).toHaveCount(0);

      await page.getByRole('textbox', { name: 'Message', exact: true }).fill('Save my notes');
      await page.keyboard.press('Enter');
      await expect(page.getByRole('alertdialog', { name: /Approve/ })).toBeVisible();
      const log = page.getByRole('log', { name: 'Conversation', exact: true });
      await expect(log.getByRole('button', { name: 'Thinking', exact: true })).toHaveCount(2);

      // A crash while the approval waits: the history (thinking, signatures) comes back from the log.
      const next = await shell.restart('kill');
      await page.goto(next.url);
      const approval = page.getByRole('alertdialog', { name: /Approve/ });
      await approval.getByRole('button', { name: 'Approve', exact: true }).click();
      const again = page.getByRole('log', { name: 'Conversation', exact: true });
      await expect(again.getByText('Saved NOTES.md.')).toBeVisible();
      await expect(again.getByRole('button', { name: 'Thinking', exact: true })).toHaveCount(3);
      await expect(page.getByRole('alert')).toHaveCount(0);

      // The scripted API verifies signatures and refuses changed or dropped thinking: none was refused.
      expect(scripted.invalid).toEqual([]);
      expect(scripted.requests).toHaveLength(2);
      const first = scripted.requests[0]!.body as { thinking?: unknown; max_tokens: number };
      expect(first.thinking).toEqual({ type: 'enabled', budget_tokens: 2048 });
      expect(first.max_tokens).toBeGreaterThan(2048);
      const second = scripted.requests[1]!.body as { messages: Array<{ role: string; content: Array<{ type: string; thinking?: string }> }> };
      expect(second.messages[1]!.content.map((b) => b.type)).toEqual(['thinking', 'redacted_thinking', 'text', 'tool_use']);
      expect(second.messages[1]!.content[0]!.thinking).toBe(PLAN);
    } finally {
      await shell.dispose();
      await scripted.close();
    }
  });
});

test.describe('preserved thinking across turns', () => {
  // Claude Sonnet 5.5 (the default model) keeps thinking across turns and binds each block to
  // everything before it: the scripted API refuses a request whose system prompt, tools or
  // earlier messages changed after a block was produced. A plan, tool loops and several turns
  // must keep the history append-only.
  const think = (text: string) => ({ thinking: [text], redacted: 1 });
  test.use({
    scenario: {
      name: 'preserved-thinking',
      turns: [
        { kind: 'tool_use', ...think('Plan the grid first.'), text: 'Planning.', calls: [{ name: 'create_plan', input: SEED_GRID_PLAN }] },
        { kind: 'tool_use', ...think('Start step one.'), calls: [{ name: 'update_plan', input: { action: 'start_step', step_number: 1 } }] },
        { kind: 'text', ...think('Report the start.'), text: 'Step 1 is under way.' },
        { kind: 'tool_use', ...think('The user says step one is done.'), calls: [{ name: 'update_plan', input: { action: 'complete_step', step_number: 1, result: 'Grids A, B, C placed' } }] },
        { kind: 'text', ...think('Confirm.'), text: 'Step 1 is complete.' },
        { kind: 'text', ...think('Answer the follow-up.'), text: 'Two steps are left.' },
      ],
    },
  });

  test('a plan, tool loops and three turns with thinking: no request rewrites what earlier thinking was bound to', async ({ app, scripted }) => {
    // A tall window: the count of Thinking blocks below needs the whole (virtualised) chat on screen.
    await app.setViewportSize({ width: 1280, height: 2400 });
    await app.getByRole('button', { name: 'Settings', exact: true }).click();
    const dialog = app.getByRole('dialog', { name: 'Settings', exact: true });
    await expect(dialog.getByLabel('Model', { exact: true })).toHaveValue('claude-sonnet-5-5');
    await dialog.getByRole('checkbox', { name: 'Extended thinking', exact: true }).check();
    await dialog.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(dialog).toHaveCount(0);

    const log = app.getByRole('log', { name: 'Conversation', exact: true });
    const say = async (text: string, reply: string) => {
      await app.getByRole('textbox', { name: 'Message', exact: true }).fill(text);
      await app.keyboard.press('Enter');
      await expect(log.getByText(reply)).toBeVisible();
      await expect(app.getByRole('button', { name: 'Stop', exact: true })).toHaveCount(0);
    };
    await say('Lay out a 3x3 grid', 'Step 1 is under way.');
    await expect(app.getByRole('region', { name: 'Task plan', exact: true })).toBeVisible();
    await say('Step one is done', 'Step 1 is complete.');
    await say('How many are left?', 'Two steps are left.');
    await expect(log.getByRole('button', { name: 'Thinking', exact: true })).toHaveCount(12);

    expect(scripted.invalid).toEqual([]);
    expect(scripted.requests).toHaveLength(6);
    // The last request still carries the first turn's thinking, exactly as it came.
    const last = scripted.requests.at(-1)!.body as { model: string; messages: Array<{ role: string; content: Array<{ type: string; thinking?: string }> | string }> };
    expect(last.model).toBe('claude-sonnet-5-5');
    const first = last.messages[1]!.content as Array<{ type: string; thinking?: string }>;
    expect(first.slice(0, 2).map((b) => b.type)).toEqual(['thinking', 'redacted_thinking']);
    expect(first[0]!.thinking).toBe('Plan the grid first.');
  });
});
