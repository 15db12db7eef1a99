import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startScriptedServer } from '../test-support/scripted-api/server';
import { expect, test } from './support/fixtures';
import { send } from './support/plan-panel';
import { chatIdHolding, twoEchoChats } from './support/chat-folders';
import { startWebShell } from './support/web-shell';

// Damaged chat logs, as a person meets them after a disk or sync tool mangled the data folder:
// the chats stay in the list marked "damaged", open read-only with what could be read, say how
// many lines were skipped, and can be exported.

function chatFolder(sessions: string, text: string): string {
  return join(sessions, chatIdHolding(sessions, text), 'events.jsonl');
}

test('damaged chats stay listed, open read-only with what could be read, count skipped lines, and export', async ({ page }) => {
  const scripted = await startScriptedServer({ scenario: { name: 'echo', turns: [], onExhausted: 'echo' } });
  // Our own folders: stopping a shell must not remove them, the second start reads them.
  const dataDir = mkdtempSync(join(tmpdir(), 'waypoint-damaged-data-'));
  const workspace = mkdtempSync(join(tmpdir(), 'waypoint-damaged-ws-'));
  const first = await startWebShell({ baseURL: scripted.url, dataDir, workspace });
  try {
    await page.goto(first.url);
    await twoEchoChats(page, 'Remember the blue notebook', 'The second chat survives');
    const log = page.getByRole('log', { name: 'Conversation', exact: true });
    await first.stop();

    const sessions = join(dataDir, 'sessions');
    const blue = chatFolder(sessions, 'Remember the blue notebook');
    const lines = readFileSync(blue, 'utf8').split('\n');
    writeFileSync(blue, ['{"seq":0,"type":"crea', ...lines.slice(1)].join('\n')); // a corrupt first line
    const second = chatFolder(sessions, 'The second chat survives');
    const kept = readFileSync(second, 'utf8').split('\n');
    writeFileSync(second, [...kept.slice(0, 2), '{not json', ...kept.slice(2)].join('\n')); // one bad line in the middle
    mkdirSync(join(sessions, 'folder-log', 'events.jsonl'), { recursive: true }); // a log that is a folder
    mkdirSync(join(sessions, 'empty-log'));
    writeFileSync(join(sessions, 'empty-log', 'events.jsonl'), ''); // a 0-byte log

    const shell = await startWebShell({ baseURL: scripted.url, dataDir, workspace });
    try {
      await page.goto(shell.url);
      const chats = page.getByRole('navigation', { name: 'Chats', exact: true });
      await expect(chats.getByRole('button', { name: /Remember the blue notebook.*damaged/ })).toBeVisible();
      await expect(chats.getByRole('button', { name: /damaged/ })).toHaveCount(3);
      await expect(chats.getByRole('button', { name: 'The second chat survives', exact: true })).toBeVisible();

      // The damaged chat opens with what could be read, read-only, and says why.
      await chats.getByRole('button', { name: /Remember the blue notebook.*damaged/ }).click();
      await expect(log.getByText('You said: Remember the blue notebook')).toBeVisible();
      const notice = page.getByRole('region', { name: 'Chat log problems', exact: true });
      await expect(notice).toContainText("This chat's log is damaged (its first record could not be read), so it opens read-only with what could be read.");
      await expect(notice).toContainText('1 line of its log could not be read and was skipped.');
      await expect(page.getByRole('textbox', { name: 'Message', exact: true })).toHaveCount(0);
      const download = page.waitForEvent('download');
      await notice.getByRole('button', { name: 'Export chat', exact: true }).click();
      const file = await download;
      expect(file.suggestedFilename()).toBe('remember-the-blue-notebook.md');
      const exported = readFileSync(await file.path(), 'utf8');
      expect(exported).toContain('## You\n\nRemember the blue notebook');
      expect(exported).toContain('## Claude\n\nYou said: Remember the blue notebook');

      // The chat with one bad line is whole otherwise: it counts the line and still takes messages.
      await chats.getByRole('button', { name: 'The second chat survives', exact: true }).click();
      await expect(page.getByRole('region', { name: 'Chat log problems', exact: true })).toContainText('1 line of its log could not be read and was skipped.');
      await send(page, 'Still here?');
      await expect(log.getByText('You said: Still here?')).toBeVisible();
    } finally {
      await shell.stop();
    }
  } finally {
    await first.stop();
    await scripted.close();
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(workspace, { recursive: true, force: true });
  }
});
