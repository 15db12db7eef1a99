import { askChoice, askFreeText, FREE_QUESTION, QUESTION } from '../test-support/scenarios/questions';
import { startScriptedServer } from '../test-support/scripted-api/server';
import { expectAccessibleInBothSchemes } from './support/axe';
import { expect, test } from './support/fixtures';
import { startPersistentShell } from './support/persistent-shell';
import { send } from './support/plan-panel';
import type { Page } from '@playwright/test';

// A question from Claude (ask_user, docs/contract.md §5) in real Chromium against the web shell: the
// "Claude asks" alertdialog, its options and typed answers, a reload, a restart, Stop, two tabs.

const question = (page: Page, text = QUESTION) => page.getByRole('alertdialog', { name: `Claude asks: ${text}` });
const conversation = (page: Page) => page.getByRole('log', { name: 'Conversation', exact: true });
type Sent = { messages: Array<{ role: string; content: Array<Record<string, unknown>> }> };
const toolResult = (body: unknown) => (body as Sent).messages.at(-1)!.content.find((b) => b.type === 'tool_result');

test.describe('a question with options', () => {
  test.use({ scenario: askChoice });

  test('one button per option (named exactly as the option), the answer goes back verbatim, and it survives a reload', async ({ app, scripted }) => {
    await send(app, 'Set up the app');
    const dialog = question(app);
    await expect(dialog).toBeVisible();
    await expect(dialog).toBeFocused();
    await expect(dialog.getByRole('button', { name: 'PostgreSQL', exact: true })).toBeVisible();
    await expect(dialog.getByRole('button', { name: 'SQLite', exact: true })).toBeVisible();
    await expect(dialog.getByRole('textbox', { name: 'Your answer', exact: true })).toBeVisible();
    await expect(dialog.getByRole('button', { name: 'Send answer', exact: true })).toBeVisible();
    await expect(app.getByRole('button', { name: 'Stop', exact: true })).toBeVisible();
    await expectAccessibleInBothSchemes(app, 'question from Claude');

    await app.reload();
    await expect(question(app)).toBeVisible();
    await expect(app.getByRole('button', { name: 'Stop', exact: true })).toBeVisible();
    await question(app).getByRole('button', { name: 'SQLite', exact: true }).click();

    await expect(question(app)).toHaveCount(0);
    await expect(conversation(app).getByText('Thanks, I will set it up that way.')).toBeVisible();
    expect(toolResult(scripted.requests[1]!.body)).toEqual({ type: 'tool_result', tool_use_id: 'toolu_ask', content: 'SQLite', cache_control: { type: 'ephemeral' } });
  });

  test('Stop closes it; the call goes back cancelled with the next message, and nothing is sent before', async ({ app, scripted }) => {
    await send(app, 'Set up the app');
    await expect(question(app)).toBeVisible();
    await app.getByRole('button', { name: 'Stop', exact: true }).click();
    await expect(question(app)).toHaveCount(0);
    await expect(app.getByRole('button', { name: 'Stop', exact: true })).toHaveCount(0);
    // Nothing failed: the question's card says it was cancelled.
    const card = conversation(app).getByRole('button', { name: /^ask_user Ask: / });
    await expect(card).toContainText('cancelled');
    await expect(card).not.toContainText('failed');
    expect(scripted.requests).toHaveLength(1);
    await send(app, 'Pick one yourself');
    await expect(conversation(app).getByText('Thanks, I will set it up that way.')).toBeVisible();
    const result = toolResult(scripted.requests[1]!.body)!;
    expect(result).toMatchObject({ tool_use_id: 'toolu_ask', is_error: true });
    expect(String(result.content)).toContain('cancelled');
    expect(scripted.invalid).toEqual([]);
  });

  test('answered in one tab, the other tab is told and nothing changes', async ({ app, shell, context, scripted }) => {
    // The second tab does not hear that the question was answered (its resolution is held back
    // on the way), so it still offers the options when the user clicks there: main must refuse.
    const other = await context.newPage();
    await other.routeWebSocket(/\/ws/, (ws) => {
      const server = ws.connectToServer();
      ws.onMessage((message) => server.send(message));
      server.onMessage((message) => {
        if (typeof message === 'string' && message.includes('"question_resolved"')) return;
        ws.send(message);
      });
    });
    await send(app, 'Set up the app');
    await expect(question(app)).toBeVisible();
    await other.goto(shell.url);
    await expect(question(other)).toBeVisible();
    await question(app).getByRole('button', { name: 'PostgreSQL', exact: true }).click();
    await expect(conversation(app).getByText('Thanks, I will set it up that way.')).toBeVisible();

    await question(other).getByRole('button', { name: 'SQLite', exact: true }).click();
    await expect(other.getByRole('alert')).toHaveText(/That question was already answered \(in another window\?\) or cancelled: nothing changed\./);
    await expect(question(other)).toHaveCount(0);
    expect(scripted.requests).toHaveLength(2);
    expect(toolResult(scripted.requests[1]!.body)!.content).toBe('PostgreSQL');
    await other.close();
  });
});

test.describe('a question without options', () => {
  test.use({ scenario: askFreeText });

  test('takes a typed answer (Send answer) exactly as typed', async ({ app, scripted }) => {
    await send(app, 'Add a module');
    const dialog = question(app, FREE_QUESTION);
    await expect(dialog).toBeVisible();
    await expect(dialog.getByRole('button')).toHaveCount(1);
    await dialog.getByRole('button', { name: 'Send answer', exact: true }).click();
    await expect(dialog.getByRole('alert')).toHaveText('Type an answer first.');
    await dialog.getByRole('textbox', { name: 'Your answer', exact: true }).fill('report_builder  (v2)');
    await dialog.getByRole('button', { name: 'Send answer', exact: true }).click();
    await expect(conversation(app).getByText('Good name. Creating it now.')).toBeVisible();
    expect(toolResult(scripted.requests[1]!.body)).toMatchObject({ content: 'report_builder  (v2)' });
    expect(toolResult(scripted.requests[1]!.body)!.is_error).toBeUndefined();
  });
});

test('a question pending when the app is killed is asked again after the restart, and its answer still counts', async ({ page }) => {
  const scripted = await startScriptedServer({ scenario: askChoice });
  const shell = await startPersistentShell(scripted.url);
  try {
    await page.goto(shell.current.url);
    await send(page, 'Set up the app');
    await expect(question(page)).toBeVisible();
    const next = await shell.restart('kill');
    await page.goto(next.url);
    await expect(question(page)).toBeVisible();
    await expect(page.getByRole('button', { name: 'Stop', exact: true })).toBeVisible();
    await question(page).getByRole('textbox', { name: 'Your answer', exact: true }).fill('DuckDB, please');
    await question(page).getByRole('button', { name: 'Send answer', exact: true }).click();
    await expect(conversation(page).getByText('Thanks, I will set it up that way.')).toBeVisible();
    expect(toolResult(scripted.requests.at(-1)!.body)).toMatchObject({ tool_use_id: 'toolu_ask', content: 'DuckDB, please' });
    expect(scripted.invalid).toEqual([]);
  } finally {
    await shell.dispose();
    await scripted.close();
  }
});
