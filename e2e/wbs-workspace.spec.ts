import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { plansWbs } from '../test-support/scenarios/plans-wbs';
import { expectAccessibleInBothSchemes } from './support/axe';
import { expect, test } from './support/fixtures';
import { choosePlanningStyle, send } from './support/plan-panel';

// Issue 23 item 4: the WBS style's WBS.md is where Settings says it is (the chat's workspace),
// the tool result names that place, and the card of a finished breakdown counts planned items
// rather than "0/6 steps completed".
test.describe.configure({ timeout: 90_000 });
test.use({ scenario: plansWbs });

test("WBS.md is written in the chat's workspace and the finished breakdown's card says what it holds", async ({ app, scripted, shell }) => {
  await choosePlanningStyle(app, 'wbs');
  await send(app, 'Plan a real-time multiplayer 2048 game');
  const log = app.getByRole('log', { name: 'Conversation', exact: true });
  await expect(log.getByText(/The WBS for Multiplayer 2048 is ready/)).toBeVisible();

  const wbs = join(shell.workspace, 'WBS.md');
  expect(existsSync(wbs)).toBe(true);
  expect(readFileSync(wbs, 'utf8')).toContain('Tile Movement Logic');
  expect(JSON.stringify(scripted.requests.map((r) => r.body))).toContain(JSON.stringify(JSON.stringify(wbs)).slice(1, -1));

  const card = log.getByRole('region', { name: 'Work breakdown completed', exact: true });
  await expect(card).toBeVisible();
  await expect(card).toContainText('6 work items planned');
  await expect(card).not.toContainText('steps completed');
  await expect(log.getByRole('region', { name: 'Plan completed', exact: true })).toHaveCount(0);
  await expectAccessibleInBothSchemes(app, 'finished WBS card');
});
