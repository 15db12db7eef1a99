import { startScriptedServer } from '../test-support/scripted-api/server';
import type { Scenario } from '../test-support/scripted-api/scenario';
import { expectAccessibleInBothSchemes } from './support/axe';
import { expect, test } from './support/fixtures';
import { startPersistentShell } from './support/persistent-shell';
import { planPanel, send } from './support/plan-panel';

// Stop between replies leaves a trace (issue 12, item 8; docs/contract.md §5): a "stopped" note, the
// panel's header says Paused and offers "Continue plan", the sidebar does not claim the plan
// runs, and all of it is still there after a restart.
test.describe.configure({ timeout: 90_000 });

const plan = {
  kind: 'tool_use' as const,
  text: 'Planning the release.',
  calls: [{ name: 'create_plan', input: { goal: 'Release 1.0', steps: ['Build', 'Test', 'Tag', 'Announce'].map((description, i) => ({ step_number: i + 1, description })) } }],
};
const step = (n: number, action: string) => ({ kind: 'tool_use' as const, calls: [{ name: 'update_plan', input: { action, step_number: n } }] });

const scenario: Scenario = {
  name: 'paused-plan',
  gated: true,
  turns: [
    plan,
    step(1, 'start_step'),
    step(1, 'complete_step'),
    step(2, 'start_step'),
    // The request held at the gate when the user presses Stop gets this, to a closed connection.
    { kind: 'text', text: 'Never seen: the user stopped before this reply.' },
    step(2, 'complete_step'),
    { kind: 'text', text: 'Tests pass. Shall I tag it?' },
  ],
};

test('Stop between replies: a note, "Paused" with "Continue plan", a truthful sidebar, and it survives a restart', async ({ page }) => {
  const scripted = await startScriptedServer({ scenario });
  const shell = await startPersistentShell(scripted.url);
  try {
    await page.goto(shell.current.url);
    const panel = planPanel(page);
    await send(page, 'Release 1.0 please');
    await scripted.release(4);
    await expect(panel.header).toContainText('1/4 steps');
    // The fifth request waits at the gate: Claude is working, so nothing says Paused yet.
    await expect(page.getByRole('button', { name: 'Stop', exact: true })).toBeVisible();
    await expect(panel.header).not.toContainText('Paused');
    await page.getByRole('button', { name: 'Stop', exact: true }).click();
    await scripted.release(1); // the stopped request, answered to nobody

    const log = page.getByRole('log', { name: 'Conversation', exact: true });
    await expect(log.getByText('You stopped Claude. The plan is paused with 3 steps left: press "Continue plan", or write a message to go on.')).toBeVisible();
    await expect(panel.header).toContainText('Paused');
    await expect(panel.region.getByRole('button', { name: 'Continue plan', exact: true })).toBeVisible();
    const chat = page.getByRole('navigation', { name: 'Chats', exact: true }).getByRole('button', { name: /Release 1\.0 please/ });
    await expect(chat).toContainText('paused 1/4');
    await expectAccessibleInBothSchemes(page, 'paused plan');

    // Collapsed, the panel still says so and still offers to continue.
    await panel.header.click();
    await expect(panel.header).toHaveAttribute('aria-expanded', 'false');
    await expect(panel.region.getByRole('button', { name: 'Continue plan', exact: true })).toBeVisible();
    await panel.header.click();

    await shell.restart('quit');
    await page.goto(shell.current.url);
    await expect(panel.header).toContainText('Paused');
    await expect(panel.header).toContainText('1/4 steps');
    await expect(log.getByText(/^You stopped Claude\./)).toBeVisible();

    const requests = scripted.requests.length;
    await panel.region.getByRole('button', { name: 'Continue plan', exact: true }).click();
    await expect(log.getByText('Continue the plan: 3 steps left', { exact: true })).toBeVisible();
    await expect(panel.header).not.toContainText('Paused');
    await expect(panel.region.getByRole('button', { name: 'Continue plan', exact: true })).toHaveCount(0);
    await scripted.release(2);
    await expect(log.getByText('Tests pass. Shall I tag it?')).toBeVisible();
    expect(scripted.requests.length).toBe(requests + 2);
    // The turn ended with steps left: paused again, now by end_turn.
    await expect(panel.header).toContainText('Paused');
    await expect(panel.header).toContainText('2/4 steps');
    await expect(chat).toContainText('paused 2/4');
  } finally {
    await shell.dispose();
    await scripted.close();
  }
});

test('typing one\'s own message continues a paused plan too', async ({ page }) => {
  const scripted = await startScriptedServer({ scenario: { ...scenario, gated: false, turns: [plan, step(1, 'start_step'), { kind: 'text', text: 'Started on the build.' }] } });
  const shell = await startPersistentShell(scripted.url);
  try {
    await page.goto(shell.current.url);
    const panel = planPanel(page);
    await send(page, 'Release 1.0 please');
    await expect(panel.header).toContainText('Paused');
    await send(page, 'Go on, but skip the announcement');
    await expect(page.getByRole('log', { name: 'Conversation', exact: true }).getByText('You said: Go on, but skip the announcement')).toBeVisible();
    const last = scripted.requests.at(-1)!.body as { messages: { role: string; content: unknown }[] };
    expect(JSON.stringify(last.messages.at(-1))).toContain('Go on, but skip the announcement');
  } finally {
    await shell.dispose();
    await scripted.close();
  }
});
