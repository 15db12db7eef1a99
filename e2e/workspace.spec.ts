import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import type { Page } from '@playwright/test';
import { expectAccessibleInBothSchemes } from './support/axe';
import { expect, test as base } from './support/fixtures';
import { send } from './support/plan-panel';
import { startWebShell } from './support/web-shell';

// Issue 23 item 1: `npm run web` without --workspace. Every chat says whether it has a folder,
// the web shell lets the user choose one (a typed path, checked; recent folders), and a tool
// call the app refuses is still a card in the transcript.

const test = base.extend({
  shell: async ({ scripted }, use) => {
    const shell = await startWebShell({ baseURL: scripted.url, workspace: null });
    await use(shell);
    await shell.stop();
  },
});

const conversation = (page: Page) => page.getByRole('log', { name: 'Conversation', exact: true });
const workspaceButton = (page: Page) => page.locator('header.header').getByRole('button', { name: /^Workspace/ });
const dialog = (page: Page) => page.getByRole('dialog', { name: 'Choose a workspace', exact: true });

let folders: string;
test.beforeEach(() => {
  folders = realpathSync(mkdtempSync(join(tmpdir(), 'waypoint-e2e-folders-')));
});
test.afterEach(() => rmSync(folders, { recursive: true, force: true }));

test.describe('a chat without a workspace', () => {
  test.use({
    scenario: {
      name: 'edit-without-workspace',
      turns: [
        { kind: 'tool_use', text: 'Editing it.', calls: [{ name: 'edit_file', id: 'toolu_edit', input: { path: 'notes.txt', old_text: 'a', new_text: 'b' } }] },
        { kind: 'text', text: 'I could not edit it.' },
      ],
    },
  });

  test('says so above the composer and in the header, and the refused edit_file is a card with the reason', async ({ app }) => {
    await expect(workspaceButton(app)).toHaveAccessibleName('Workspace none');
    const notice = app.getByRole('region', { name: 'No workspace', exact: true });
    await expect(notice).toContainText('This chat has no workspace folder');
    await expect(notice.getByRole('button', { name: 'Choose a folder', exact: true })).toBeVisible();
    await expectAccessibleInBothSchemes(app, 'chat without a workspace');

    await send(app, 'Change a to b in notes.txt');
    await expect(conversation(app).getByText('I could not edit it.')).toBeVisible();
    const card = conversation(app).getByRole('button', { name: /^edit_file/ });
    await expect(card).toContainText('failed');
    await card.click();
    await expect(conversation(app)).toContainText('this chat has no workspace folder');
  });
});

test.describe('choosing a workspace in the web shell', () => {
  test.use({
    scenario: {
      name: 'read-in-workspace',
      turns: [
        { kind: 'tool_use', text: 'Reading it.', calls: [{ name: 'read_file', id: 'toolu_read', input: { path: 'notes.txt' } }] },
        { kind: 'text', text: 'Read it.' },
      ],
    },
  });

  test('a typed path is checked, a good one becomes the chat’s folder, and it is offered again as a recent folder', async ({ app, shell }) => {
    const project = join(folders, 'project');
    mkdirSync(project);
    writeFileSync(join(project, 'notes.txt'), 'the notes of the project\n');
    writeFileSync(join(folders, 'file.txt'), 'x');

    await workspaceButton(app).click();
    await expect(dialog(app)).toBeVisible();
    const field = dialog(app).getByRole('textbox', { name: 'Workspace folder', exact: true });
    await expect(field).toBeFocused();
    const use = dialog(app).getByRole('button', { name: 'Use this folder', exact: true });

    await field.fill(join(folders, 'missing'));
    await use.click();
    await expect(dialog(app).getByRole('alert')).toHaveText(`There is no folder at "${join(folders, 'missing')}": check the path.`);
    await expect(field).toHaveAttribute('aria-invalid', 'true');
    await field.fill(join(folders, 'file.txt'));
    await use.click();
    await expect(dialog(app).getByRole('alert')).toContainText('is a file, not a folder');
    await field.fill(shell.dataDir);
    await use.click();
    await expect(dialog(app).getByRole('alert')).toContainText("is inside Waypoint's data folder");
    await expectAccessibleInBothSchemes(app, 'Choose a workspace with an error');
    await expect(workspaceButton(app)).toHaveAccessibleName('Workspace none');

    await field.fill(project);
    await use.click();
    await expect(dialog(app)).toHaveCount(0);
    await expect(workspaceButton(app)).toHaveAccessibleName('Workspace project');
    await expect(workspaceButton(app)).toHaveAccessibleDescription(`Folder: ${project}`);
    await expect(app.getByRole('region', { name: 'No workspace', exact: true })).toHaveCount(0);
    const row = app.getByRole('navigation', { name: 'Chats', exact: true }).getByRole('list').getByRole('button', { name: /^New chat/ });
    await expect(row).toHaveAccessibleDescription(`Workspace: ${project}`);
    await expect(row).toContainText(basename(project));

    // Claude's file tools now work there.
    await send(app, 'Read notes.txt');
    await expect(conversation(app).getByText('Read it.')).toBeVisible();
    const card = conversation(app).getByRole('button', { name: /^read_file/ });
    await expect(card).toContainText('done');

    // A new chat has no folder (no --workspace); the last one is a recent folder, one press away.
    await app.getByRole('button', { name: 'New chat', exact: true }).click();
    await expect(workspaceButton(app)).toHaveAccessibleName('Workspace none');
    await app.getByRole('region', { name: 'No workspace', exact: true }).getByRole('button', { name: 'Choose a folder', exact: true }).click();
    await expect(dialog(app)).toBeVisible();
    await expectAccessibleInBothSchemes(app, 'Choose a workspace with a recent folder');
    await dialog(app).getByRole('button', { name: project, exact: true }).click();
    await expect(dialog(app)).toHaveCount(0);
    await expect(workspaceButton(app)).toHaveAccessibleName('Workspace project');
  });
});
