import { resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { expect, test } from './support/fixtures';
import { expectProgress, planPanel } from './support/plan-panel';

// `waypoint mcp` is a second process on the web shell's data folder: an MCP client (here the
// official SDK's, as Claude Code would be) plans through it, and the open window lists the chat
// and follows its plan live, with no reload.
const CLI_JS = resolve('out/main/cli.js');

type ToolText = { content: Array<{ type: string; text?: string }>; isError?: boolean };

test('a plan an MCP client writes appears in the web shell and updates live', async ({ app, shell }) => {
  const transport = new StdioClientTransport({ command: process.execPath, args: [CLI_JS, 'mcp', '--data-dir', shell.dataDir], stderr: 'pipe' });
  const client = new Client({ name: 'claude-code', version: '2.1.0' });
  await client.connect(transport);
  const call = async (name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: args })) as ToolText;
  try {
    const chats = app.getByRole('navigation', { name: 'Chats', exact: true });
    await expect(app.getByRole('textbox', { name: 'Message', exact: true })).toBeVisible();
    // A mark on this page: a reload would lose it.
    await app.evaluate(() => ((window as unknown as { mcpLiveMark: number }).mcpLiveMark = 17));

    const created = await call('create_plan', {
      goal: 'Ship the release',
      steps: [
        { step_number: 1, description: 'Bump the version' },
        { step_number: 2, description: 'Write the changelog', depends_on: [1] },
        { step_number: 3, description: 'Tag and publish', depends_on: [2] },
      ],
    });
    expect(created.isError).toBeFalsy();
    const listedAt = Date.now();
    // A chat-list button's name is the chat's title with its state, so it is matched in part.
    const item = chats.getByRole('button', { name: 'claude-code: Ship the release' });
    await expect(item).toBeVisible();
    console.info(`[mcp-live] the chat was listed ${Date.now() - listedAt} ms after the tool call returned`);

    await item.click();
    const panel = planPanel(app);
    await expectProgress(app, 0, 3);
    await expect(panel.step('Bump the version')).toHaveAttribute('data-status', 'pending');

    await call('update_plan', { action: 'start_step', step_number: 1 });
    await expect(panel.step('Bump the version')).toHaveAttribute('data-status', 'in_progress');
    await call('update_plan', { action: 'complete_step', step_number: 1, result: 'v2.0.0' });
    await expect(panel.step('Bump the version')).toHaveAttribute('data-status', 'completed');
    await expectProgress(app, 1, 3);

    // A call the rules refuse is an error result naming the rule; the plan (and the panel) stay.
    const refused = await call('update_plan', { action: 'start_step', step_number: 3 });
    expect(refused.isError).toBe(true);
    expect(refused.content[0]?.text).toMatch(/depends on step 2/);
    await call('update_plan', { action: 'start_step', step_number: 2 });
    await expect(panel.step('Write the changelog')).toHaveAttribute('data-status', 'in_progress');
    await expect(panel.step('Tag and publish')).toHaveAttribute('data-status', 'pending');

    // The chat has one writer, the MCP server: the window says so without being asked, and the
    // composer is disabled, saying why (before, it took a typed message and then refused it).
    await expect(app.getByRole('region', { name: 'Written by another process', exact: true })).toContainText(/being written by waypoint mcp \(claude-code\) \(pid \d+/);
    const box = app.getByRole('textbox', { name: 'Message', exact: true });
    await expect(box).toBeDisabled();
    await expect(box).toHaveAccessibleDescription('You can’t write here while waypoint mcp (claude-code) writes this chat.');
    await expect(app.getByRole('button', { name: 'Send', exact: true })).toBeDisabled();
    await expect(panel.step('Write the changelog')).toHaveAttribute('data-status', 'in_progress');

    // A plan edit made here goes to the MCP server (the chat's writer): the panel shows it from
    // the server's log, and the client hears of it at the end of its next tool result.
    await panel.step('Tag and publish').getByRole('button', { name: 'Edit step', exact: true }).click();
    await panel.step('Tag and publish').getByRole('menuitem', { name: 'Skip', exact: true }).click();
    await expect(panel.step('Tag and publish')).toHaveAttribute('data-status', 'skipped');
    const next = await call('update_plan', { action: 'complete_step', step_number: 2, result: 'CHANGELOG.md written' });
    expect(next.isError).toBeFalsy();
    expect(next.content[0]?.text).toMatch(/The user edited the plan: .*skipped.*Tag and publish/i);
    // With the last step skipped, that completes the plan: the panel goes, as for any finished plan.
    await expect(app.getByRole('region', { name: 'Task plan', exact: true })).toHaveCount(0);

    // The client's own words are in the transcript, and the window never had to reload.
    await expect(app.getByRole('log', { name: 'Conversation', exact: true }).getByText(/claude-code plans here over MCP/)).toBeVisible();
    expect(await app.evaluate(() => (window as unknown as { mcpLiveMark?: number }).mcpLiveMark)).toBe(17);
  } finally {
    await client.close();
  }
});
