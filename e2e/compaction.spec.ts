import { DEFAULT_MODEL } from '../src/shared/settings';
import { isSummaryRequest, planningResponder, smallWindowModel, userMessage } from '../test-support/main/long-chat-kit';
import { startScriptedServer } from '../test-support/scripted-api/server';
import { countRequestTokens } from '../test-support/scripted-api/token-count';
import { expectAccessibleInBothSchemes } from './support/axe';
import { expect, test } from './support/fixtures';
import { startPersistentShell } from './support/persistent-shell';
import { expectProgress, planPanel, send } from './support/plan-panel';
import { scrollLogTo } from './support/transcript';

// docs/contract.md §5, "Model and its window" and "Compaction", through the UI: a chat that outgrows a
// small window compacts by itself, the "Compacted" marker expands to the summary, the whole
// chat stays on screen, and all of it survives a reload and a restart.

const WINDOW = 12_000;
/** A question with some context pasted along, so the window fills in a few turns. */
const longer = (n: number) => `${userMessage(n)}\n\n${'Here is some more context for the question, pasted from my notes. '.repeat(12)}`;
/** At the first message Claude makes a plan and starts its first step; it must outlive the compactions. */
const PLANNING = {
  1: [
    { kind: 'tool_use' as const, calls: [{ name: 'create_plan', input: { goal: 'Explain the topics', steps: [{ step_number: 1, description: 'Gather the notes' }, { step_number: 2, description: 'Explain each topic' }, { step_number: 3, description: 'Sum up' }] } }], delayMs: 0 },
    { kind: 'tool_use' as const, calls: [{ name: 'update_plan', input: { action: 'complete_step', step_number: 1, result: 'notes gathered' } }], delayMs: 0 },
    { kind: 'tool_use' as const, calls: [{ name: 'update_plan', input: { action: 'start_step', step_number: 2 } }], delayMs: 0 },
  ],
};

test('a chat that outgrows the window compacts; "Compacted" expands to the summary and survives a reload and a restart', async ({ page }) => {
  test.setTimeout(240_000);
  const scripted = await startScriptedServer({
    scenario: { name: 'long', turns: [] },
    models: [smallWindowModel(WINDOW, 1_024, DEFAULT_MODEL)],
    respond: planningResponder(PLANNING),
  });
  const shell = await startPersistentShell(scripted.url);
  try {
    await page.goto(shell.current.url);
    const log = page.getByRole('log', { name: 'Conversation', exact: true });
    const compacted = log.getByRole('button', { name: /Compacted/ });

    // Settings "Model" shows the model by its display name, with the window the Models API gave.
    await page.getByRole('button', { name: 'Settings', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Settings', exact: true });
    await expect(dialog.getByLabel('Model', { exact: true }).locator('option:checked')).toHaveText('Claude Sonnet 4.6 (small window)');
    await expect(dialog.getByText(`Context window ${WINDOW.toLocaleString('en-US')} tokens; replies up to 1,024 tokens.`)).toBeVisible();
    await dialog.getByRole('button', { name: 'Cancel', exact: true }).click();

    let n = 0;
    while ((await compacted.count()) === 0) {
      n++;
      expect(n).toBeLessThanOrEqual(60);
      await send(page, longer(n));
      await expect(log.getByText(`Topic ${n}, briefly:`)).toBeVisible();
      await expect(page.getByRole('button', { name: 'Stop', exact: true })).toHaveCount(0);
    }
    // Every request, the summary's too, fit the window with room for its max_tokens.
    const bodies = scripted.requests.map((r) => r.body as { max_tokens: number });
    for (const body of bodies) expect(countRequestTokens(body) + body.max_tokens).toBeLessThanOrEqual(WINDOW);
    expect(bodies.filter(isSummaryRequest).length).toBeGreaterThanOrEqual(1);

    // The marker expands to the summary Claude wrote.
    await expect(compacted).toHaveAttribute('aria-expanded', 'false');
    await compacted.click();
    await expect(compacted).toHaveAttribute('aria-expanded', 'true');
    await expect(log.getByText(/Summary: the user asked about topics 1 to \d+\./)).toBeVisible();
    // The marker, its summary, the meter and "Compact now" are readable and named, in both schemes.
    await expectAccessibleInBothSchemes(page, 'a compacted chat, the summary open');
    // The meter reads the window the model has.
    const meter = page.getByRole('meter', { name: 'Context window', exact: true });
    await expect(meter).toHaveAttribute('aria-valuetext', new RegExp(`of ${WINDOW.toLocaleString('en-US')} tokens`));

    // The plan is as Claude left it: step 1 done, step 2 in progress, and requests carry its state.
    await expectProgress(page, 1, 3);
    await expect(planPanel(page).step('Explain each topic')).toContainText('in progress');
    const latest = JSON.stringify((scripted.requests.at(-1)!.body as { messages: unknown[] }).messages.at(-1));
    expect(latest).toContain('[in_progress] 2. Explain each topic');

    // The whole chat stays on screen: scrolled up to, the first message is there.
    // (The transcript is virtualised: far rows are out of the page until scrolled to, as a person does.)
    const first = log.getByText(userMessage(1));
    await scrollLogTo(page, first);
    await expect(first).toBeVisible();

    // After a reload the marker and the first message are still there.
    await page.reload();
    await scrollLogTo(page, compacted);
    await expect(compacted).toBeVisible();
    await compacted.click();
    await expect(log.getByText(/Summary: the user asked about topics 1 to \d+\./)).toBeVisible();
    await scrollLogTo(page, log.getByText(userMessage(1)));
    await expect(log.getByText(userMessage(1))).toHaveCount(1);
    // The meter comes back with the chat: how full the window was after its last reply.
    await expect(meter).toHaveAttribute('aria-valuetext', new RegExp(`of ${WINDOW.toLocaleString('en-US')} tokens`));

    // One more turn, then "Compact now" by hand, then a restart: both markers come back, and the chat goes on.
    n++;
    await send(page, longer(n));
    await expect(log.getByText(`Topic ${n}, briefly:`)).toBeVisible();
    await page.getByRole('button', { name: 'Compact now', exact: true }).click();
    await expect(log.getByRole('button', { name: /Compacted .* at your request/ })).toBeVisible();
    const next = await shell.restart('quit');
    await page.goto(next.url);
    await expect(log.getByRole('button', { name: /Compacted .* at your request/ })).toBeVisible();
    // The automatic marker, further up: found by scrolling.
    await scrollLogTo(page, log.getByRole('button', { name: /^(?!.*at your request).*Compacted/ }));
    await expectProgress(page, 1, 3);
    await send(page, longer(n + 1));
    await expect(log.getByText(`Topic ${n + 1}, briefly:`)).toBeVisible();
    const last = scripted.requests.at(-1)!.body as { messages: unknown[] };
    expect(JSON.stringify(last.messages[0])).toContain('<summary>');
  } finally {
    await shell.dispose();
    await scripted.close();
  }
});
