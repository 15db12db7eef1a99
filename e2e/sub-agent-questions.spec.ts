import { startScriptedServer } from '../test-support/scripted-api/server';
import type { ScriptedTurn } from '../test-support/scripted-api/scenario';
import { expectAccessibleInBothSchemes } from './support/axe';
import { byAgent } from './support/by-agent';
import type { Locator, Page } from '@playwright/test';
import { expect, test } from './support/fixtures';
import { startPersistentShell } from './support/persistent-shell';
import { planPanel, send } from './support/plan-panel';

// A sub-agent's approval (docs/contract.md §10 "Its questions") in the web shell: it shows in the
// chat and in "Needs you" labelled "Sub-agent: TITLE", its sibling finishes meanwhile, and
// "Approve" in "Needs you" runs it on to its end and then the parent.
test.describe.configure({ timeout: 120_000 });

const ALPHA = 'Alpha: tidy the notes';
const BETA = 'Beta: read the notes';
const MESSAGE = 'Share the notes work';

const scripts: Record<string, ScriptedTurn[]> = {
  [MESSAGE]: [
    { kind: 'tool_use', calls: [{ name: 'delegate', input: { task: ALPHA } }, { name: 'delegate', input: { task: BETA } }] },
    { kind: 'text', text: 'Both sub-agents are done.' },
  ],
  Alpha: [
    { kind: 'tool_use', text: 'Tidying up.', calls: [{ name: 'run_command', input: { command: 'echo tidied' } }] },
    { kind: 'text', text: 'Alpha tidied the notes.' },
  ],
  Beta: [{ kind: 'text', text: 'Beta read the notes.' }],
};

test('a sub-agent\'s approval shows labelled in the chat and in "Needs you"; its sibling is Done meanwhile; Approve there runs it on', async ({ page }) => {
  const scripted = await startScriptedServer({ scenario: { name: 'sub-agent-approval', turns: [], onExhausted: 'echo' }, respond: byAgent(scripts) });
  const shell = await startPersistentShell(scripted.url, { settings: { agenticMode: true, goalChecks: 0 } });
  try {
    await page.goto(shell.current.url);
    await send(page, MESSAGE);
    const name = new RegExp(`^Sub-agent: ${ALPHA} Approve this command\\?`);
    const inChat = page.getByRole('alertdialog', { name });
    await expect(inChat).toBeVisible();
    const beta = planPanel(page).region.getByRole('group', { name: `Sub-agent: ${BETA}`, exact: true });
    await expect(beta).toContainText('Done');
    // It waits for the person, not for Claude: its group and its card say so, and so does the chat's row.
    await expect(planPanel(page).region.getByRole('group', { name: `Sub-agent: ${ALPHA}`, exact: true }).locator('.subagent-status')).toHaveText('Needs you');
    await expect(page.getByRole('navigation', { name: 'Chats', exact: true }).locator('li[data-run="needs-you"]')).toHaveCount(1);

    // Its card shows what it did so far, while it waits.
    const log = page.getByRole('log', { name: 'Conversation', exact: true });
    const card = log.getByRole('button', { name: `Sub-agent: ${ALPHA}`, exact: true });
    await expect(card.locator('xpath=..').locator('.tool-card-status')).toHaveText('Needs you');
    await card.click();
    await expect(log.getByRole('list', { name: 'Its messages and tool calls', exact: true }).getByRole('listitem').filter({ hasText: 'Tidying up.' })).toHaveCount(1);
    await expectAccessibleInBothSchemes(page, "a sub-agent's approval in the chat");

    await page.getByRole('button', { name: 'Needs you (1)', exact: true }).click();
    const inbox = page.getByRole('dialog', { name: 'Needs you', exact: true });
    await expect(inbox.getByRole('listitem').first()).toContainText(`Sub-agent: ${ALPHA}: Approve: `);
    const prompt = inbox.getByRole('alertdialog', { name });
    await expect(prompt).toBeVisible();
    await expectAccessibleInBothSchemes(page, "a sub-agent's approval in Needs you");
    await prompt.getByRole('button', { name: 'Approve', exact: true }).click();

    await expect(log.getByText('Both sub-agents are done.')).toBeVisible();
    await expect(planPanel(page).region.getByRole('group', { name: `Sub-agent: ${ALPHA}`, exact: true })).toContainText('Done');
    await expect(page.getByRole('button', { name: 'Needs you (0)', exact: true })).toBeVisible();
    await expect(page.getByRole('alertdialog', { name })).toHaveCount(0);
  } finally {
    await shell.dispose();
    await scripted.close();
  }
});

/** What a restart case asks: the chat's message, who says what, the question's prompt, the settings on top of agentic mode. */
interface AskedBeforeRestart {
  name: string;
  message: string;
  scripts: Record<string, ScriptedTurn[]>;
  prompt: RegExp;
  settings?: Record<string, unknown>;
}

/**
 * A sub-agent asks, the shell is killed while the question waits and started again over the same
 * data folder, and the chat is opened: `after` gets the question's prompt, shown again.
 */
async function askedBeforeRestart(page: Page, asked: AskedBeforeRestart, after: (prompt: Locator) => Promise<void>): Promise<void> {
  const scripted = await startScriptedServer({ scenario: { name: asked.name, turns: [], onExhausted: 'echo' }, respond: byAgent(asked.scripts) });
  const shell = await startPersistentShell(scripted.url, { settings: { agenticMode: true, goalChecks: 0, ...asked.settings } });
  try {
    await page.goto(shell.current.url);
    await send(page, asked.message);
    await expect(page.getByRole('alertdialog', { name: asked.prompt })).toBeVisible();

    const restarted = await shell.restart('kill');
    await page.goto(restarted.url);
    await page.getByRole('navigation', { name: 'Chats', exact: true }).getByRole('button', { name: asked.message }).click();
    const prompt = page.getByRole('alertdialog', { name: asked.prompt });
    await expect(prompt).toBeVisible();
    await after(prompt);
  } finally {
    await shell.dispose();
    await scripted.close();
  }
}

test("a sub-agent's question outlives a restart (the shell killed while it waits): answered after it, the sub-agent and then the chat run on", async ({ page }) => {
  const asked: AskedBeforeRestart = {
    name: 'sub-agent-restart',
    message: 'Hand it over',
    scripts: {
      'Hand it over': [{ kind: 'tool_use', calls: [{ name: 'delegate', input: { task: 'Gamma: ask about the format' } }] }, { kind: 'text', text: 'Gamma answered; all done.' }],
      Gamma: [
        { kind: 'tool_use', calls: [{ name: 'ask_user', input: { question: 'Which format?', options: ['Markdown', 'Plain text'] } }] },
        { kind: 'text', text: 'Gamma will use Markdown.' },
      ],
    },
    prompt: /^Sub-agent: Gamma: ask about the format Claude asks: Which format\?/,
  };
  await askedBeforeRestart(page, asked, async (prompt) => {
    await expect(page.getByRole('button', { name: 'Needs you (1)', exact: true })).toBeVisible();
    await expectAccessibleInBothSchemes(page, "a sub-agent's question after a restart");
    await prompt.getByRole('button', { name: 'Markdown', exact: true }).click();

    const log = page.getByRole('log', { name: 'Conversation', exact: true });
    await expect(log.getByText('Gamma answered; all done.')).toBeVisible();
    await expect(planPanel(page).region.getByRole('group', { name: 'Sub-agent: Gamma: ask about the format', exact: true })).toContainText('Done');
  });
});

test("a question of a sub-agent's own sub-agent (depth 2) outlives a restart: its group says Needs you; answered, it, its parent and the chat run on", async ({ page }) => {
  const asked: AskedBeforeRestart = {
    name: 'deep-sub-agent-restart',
    message: 'Pass it down',
    scripts: {
      'Pass it down': [{ kind: 'tool_use', calls: [{ name: 'delegate', input: { task: 'Delta: organise the notes' } }] }, { kind: 'text', text: 'Delta is done; all done.' }],
      Delta: [{ kind: 'tool_use', calls: [{ name: 'delegate', input: { task: 'Epsilon: ask about the format' } }] }, { kind: 'text', text: 'Delta organised the notes.' }],
      Epsilon: [
        { kind: 'tool_use', calls: [{ name: 'ask_user', input: { question: 'Which format?', options: ['Markdown', 'Plain text'] } }] },
        { kind: 'text', text: 'Epsilon will use Markdown.' },
      ],
    },
    prompt: /^Sub-agent: Epsilon: ask about the format Claude asks: Which format\?/,
    settings: { subAgentDepth: 2 },
  };
  await askedBeforeRestart(page, asked, async (prompt) => {
    const delta = planPanel(page).region.getByRole('group', { name: 'Sub-agent: Delta: organise the notes', exact: true });
    const epsilon = delta.getByRole('group', { name: 'Sub-agent: Epsilon: ask about the format', exact: true });
    await expect(epsilon.locator('.subagent-status')).toHaveText('Needs you');
    await expect(delta.locator('.subagent-status').first()).toHaveText('Working');
    await prompt.getByRole('button', { name: 'Markdown', exact: true }).click();

    const log = page.getByRole('log', { name: 'Conversation', exact: true });
    await expect(log.getByText('Delta is done; all done.')).toBeVisible();
    await expect(delta.locator('.subagent-status').first()).toHaveText('Done');
    await expect(epsilon.locator('.subagent-status')).toHaveText('Done');
  });
});
