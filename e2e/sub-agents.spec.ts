import { startScriptedServer, type ScriptedServer } from '../test-support/scripted-api/server';
import type { ScriptedTurn } from '../test-support/scripted-api/scenario';
import { expectAccessibleInBothSchemes } from './support/axe';
import { expect, test } from './support/fixtures';
import { startPersistentShell } from './support/persistent-shell';
import { planPanel, send } from './support/plan-panel';
import { byAgent, firstText } from './support/by-agent';

// Sub-agents in the web shell (docs/contract.md §10, names exact): two delegate calls in one reply
// show as groups "Sub-agent: TITLE" under the step in progress, with status, "N/M steps" and their
// steps; "Stop sub-agent" stops one branch while the other finishes; the chat's Stop stops the
// whole tree, after which no request reaches Claude.
test.describe.configure({ timeout: 120_000 });

const use = (name: string, input: unknown): ScriptedTurn => ({ kind: 'tool_use', calls: [{ name, input }] });
const plan = (goal: string, steps: string[]) => use('create_plan', { goal, steps: steps.map((description, i) => ({ step_number: i + 1, description })) });
/**
 * A reply that streams for a few seconds and calls a reading tool, so an agent that is not stopped
 * asks Claude again soon after: repeated, it keeps an agent busy, and sending, for minutes.
 */
const looking: ScriptedTurn = { kind: 'tool_use', text: 'Looking around. '.repeat(8), chunkChars: 4, delayMs: 100, calls: [{ name: 'list_directory', input: {} }] };
const keepsLooking = (): ScriptedTurn[] => Array.from({ length: 60 }, () => looking);
/** A reply that streams for minutes: the agent stays "Working" until something stops it. */
const endless: ScriptedTurn = { kind: 'text', text: 'still working on it '.repeat(20), chunkChars: 1, delayMs: 400 };

const ALPHA = 'Alpha: count the notes';
const BETA = 'Beta: sort the files';

function parentScript(message: string): Record<string, ScriptedTurn[]> {
  return {
    [message]: [
      plan('Split the work', ['Hand out the work']),
      use('update_plan', { action: 'start_step', step_number: 1 }),
      { kind: 'tool_use', calls: [{ name: 'delegate', input: { task: ALPHA } }, { name: 'delegate', input: { task: BETA } }] },
      use('update_plan', { action: 'complete_step', step_number: 1, result: 'handed out' }),
      { kind: 'text', text: 'Alpha counted; Beta was stopped.' },
    ],
  };
}

async function withShell(scripts: Record<string, ScriptedTurn[]>, body: (url: string, scripted: ScriptedServer) => Promise<void>) {
  const scripted = await startScriptedServer({ scenario: { name: 'sub-agents', turns: [], onExhausted: 'echo' }, respond: byAgent(scripts) });
  // No goal check: it would ask Claude once more after the plan, which these scripts do not cover.
  const shell = await startPersistentShell(scripted.url, { settings: { agenticMode: true, goalChecks: 0 } });
  try {
    await body(shell.current.url, scripted);
  } finally {
    await shell.dispose();
    await scripted.close();
  }
}

test('two sub-agents under the step: "Stop sub-agent" stops one, the other finishes, the reply follows', async ({ page }) => {
  const message = 'Split the work please';
  await withShell(
    {
      ...parentScript(message),
      Alpha: [
        plan('Count', ['Count the notes', 'Write the count']),
        use('update_plan', { action: 'start_step', step_number: 1 }),
        use('update_plan', { action: 'complete_step', step_number: 1, result: '12 notes' }),
        use('update_plan', { action: 'start_step', step_number: 2 }),
        use('update_plan', { action: 'complete_step', step_number: 2, result: 'written' }),
        { kind: 'text', text: 'There are 12 notes.' },
      ],
      Beta: [plan('Sort', ['List the files', 'Sort them']), use('update_plan', { action: 'start_step', step_number: 1 }), endless],
    },
    async (url) => {
      await page.goto(url);
      await send(page, message);
      const panel = planPanel(page);
      const step = panel.step('Hand out the work');
      const alpha = step.getByRole('group', { name: `Sub-agent: ${ALPHA}`, exact: true });
      const beta = step.getByRole('group', { name: `Sub-agent: ${BETA}`, exact: true });

      await expect(alpha).toContainText('Done');
      await expect(alpha).toContainText('2/2 steps');
      await expect(alpha.getByRole('listitem')).toHaveCount(2);
      await expect(alpha.getByRole('listitem').filter({ hasText: 'Write the count' })).toHaveAttribute('data-status', 'completed');

      await expect(beta).toContainText('Working');
      await expect(beta).toContainText('0/2 steps');
      await expect(beta.getByRole('listitem').filter({ hasText: 'List the files' })).toHaveAttribute('data-status', 'in_progress');
      await expect(beta.getByRole('listitem').filter({ hasText: 'Sort them' })).toHaveAttribute('data-status', 'pending');
      await expectAccessibleInBothSchemes(page, 'the Task plan with two sub-agents');

      await beta.getByRole('button', { name: 'Stop sub-agent', exact: true }).click();
      // The parent then completes its one-step plan, so the groups stay in the region without the step.
      const betaAfter = panel.region.getByRole('group', { name: `Sub-agent: ${BETA}`, exact: true });
      await expect(betaAfter).toContainText('Stopped');
      await expect(betaAfter.getByRole('button', { name: 'Stop sub-agent', exact: true })).toHaveCount(0);
      await expect(panel.region.getByRole('group', { name: `Sub-agent: ${ALPHA}`, exact: true })).toContainText('Done');
      await expect(page.getByRole('log', { name: 'Conversation', exact: true }).getByText('Alpha counted; Beta was stopped.')).toBeVisible();
      await expectAccessibleInBothSchemes(page, 'the Task plan after Stop sub-agent');

      // The transcript: one card per sub-agent; Alpha's expands (by keyboard) to its replies and tool calls.
      const log = page.getByRole('log', { name: 'Conversation', exact: true });
      const card = log.getByRole('button', { name: `Sub-agent: ${ALPHA}`, exact: true });
      await expect(card).toHaveCount(1);
      await expect(log.getByRole('button', { name: `Sub-agent: ${BETA}`, exact: true })).toHaveCount(1);
      await card.focus();
      await page.keyboard.press('Enter');
      await expect(card).toHaveAttribute('aria-expanded', 'true');
      const lines = log.getByRole('list', { name: 'Its messages and tool calls', exact: true });
      await expect(lines.getByRole('listitem').filter({ hasText: 'There are 12 notes.' })).toHaveCount(1);
      const steps = log.getByRole('list', { name: "Its plan's steps", exact: true }).getByRole('listitem');
      await expect(steps).toHaveCount(2);
      await expect(steps.filter({ hasText: 'Write the count' })).toHaveAttribute('data-status', 'completed');
      await expectAccessibleInBothSchemes(page, 'a sub-agent card expanded');
    },
  );
});

test("the chat's Stop during sub-agents stops the tree: no request reaches Claude afterwards", async ({ page }) => {
  const message = 'Split the work now';
  await withShell(
    {
      ...parentScript(message),
      Alpha: [plan('Count', ['Count the notes']), use('update_plan', { action: 'start_step', step_number: 1 }), ...keepsLooking()],
      Beta: keepsLooking(),
    },
    async (url, scripted) => {
      await page.goto(url);
      await send(page, message);
      const panel = planPanel(page);
      const alpha = panel.region.getByRole('group', { name: `Sub-agent: ${ALPHA}`, exact: true });
      const beta = panel.region.getByRole('group', { name: `Sub-agent: ${BETA}`, exact: true });
      await expect(alpha).toContainText('Working');
      await expect(beta).toContainText('Working');
      // Both sub-agents are busy asking Claude again and again.
      const fromAgents = () => scripted.requests.filter((r) => /^(Alpha|Beta)/.test(firstText(r.body as Record<string, unknown>))).length;
      await expect.poll(fromAgents, { timeout: 30_000 }).toBeGreaterThanOrEqual(6);

      await page.getByRole('button', { name: 'Stop', exact: true }).click();
      await expect(alpha).toContainText('Stopped');
      await expect(beta).toContainText('Stopped');
      // Longer than one of their replies takes: a sub-agent left running would have asked again.
      const sent = scripted.requests.length;
      await page.waitForTimeout(6000);
      expect(scripted.requests.length).toBe(sent);
      await expect(page.getByRole('button', { name: 'Stop', exact: true })).toHaveCount(0);
    },
  );
});
