import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  UNDO_CREATED,
  UNDO_EDITED,
  UNDO_EDITED_TEXT,
  UNDO_FILES,
  recoveryUndoPlan,
} from '../test-support/scenarios/recovery-patterns';
import { expect, test } from './support/recovery-fixtures';
import { planPanel, send } from './support/plan-panel';

// The panel hides once a plan is finished, so the completion card offers "Undo plan" instead.
test.use({
  scenario: {
    ...recoveryUndoPlan,
    name: 'recovery-undo-completed-plan',
    turns: [
      ...recoveryUndoPlan.turns.slice(0, -1),
      { kind: 'tool_use', calls: [{ name: 'update_plan', input: { action: 'skip_step', step_number: 3, reason: 'Tag later' } }] },
      {
        kind: 'tool_use',
        calls: [{ name: 'complete_plan', input: { status: 'partial_success', summary: 'Config and changelog are done; tagging is left.' } }],
      },
      { kind: 'text', text: 'All set for now.' },
    ],
  },
  settingsFile: { autoApproveEdits: true, retryDelayMs: 0 },
  workspaceFiles: UNDO_FILES,
});

test('a finished plan can still be undone from its completion card', async ({ app, shell }) => {
  await send(app, 'Prepare the 1.0 release');
  await expect(app.getByText('All set for now.')).toBeVisible();
  await expect(planPanel(app).region).toHaveCount(0);
  expect(existsSync(join(shell.workspace, UNDO_CREATED))).toBe(true);

  const card = app.getByRole('region', { name: 'Plan partly completed', exact: true });
  await expect(card).toContainText('Config and changelog are done; tagging is left.');
  await expect(card).toContainText('2/3 steps completed, 1 skipped');
  await card.getByRole('button', { name: 'Undo plan', exact: true }).click();
  await card.getByRole('button', { name: 'Confirm undo', exact: true }).click();
  // The same card, now undone: Claude's summary stays, the steps no longer count as done.
  const undone = app.getByRole('region', { name: 'Plan undone', exact: true });
  await expect(undone.getByRole('status')).toContainText(`restored ${UNDO_EDITED}; removed ${UNDO_CREATED}`);
  await expect(undone).toContainText('Config and changelog are done; tagging is left.');
  await expect(undone).toContainText(`Undone: restored ${UNDO_EDITED}; removed ${UNDO_CREATED}. No step counts as done any more.`);
  await expect(undone).not.toContainText('steps completed');
  await expect(card).toHaveCount(0);
  expect(readFileSync(join(shell.workspace, UNDO_EDITED), 'utf8')).toBe(UNDO_EDITED_TEXT);
  expect(existsSync(join(shell.workspace, UNDO_CREATED))).toBe(false);
});
