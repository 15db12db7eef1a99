import { recoveryOverloadStorm } from '../test-support/scenarios/recovery-escalation';
import { expect, test } from './support/recovery-fixtures';
import { send } from './support/plan-panel';

// API faults are not model mistakes: the loop backs off on its own budget and shows it live.

test.describe('a 529 storm', () => {
  test.use({ scenario: recoveryOverloadStorm, shellEnv: { WAYPOINT_API_RETRY_BASE_MS: '700' } });

  test('shows the live retry banner and ends in the recovered answer, shown once', async ({ app, scripted }) => {
    await send(app, 'Are you there?');
    const banner = app.getByRole('status').filter({ hasText: /Claude is overloaded — retrying in \d+ s \(attempt 1\/5\)/ });
    await expect(banner).toBeVisible();
    await expect(app.getByRole('button', { name: 'Abort', exact: true })).toBeVisible();
    const log = app.getByRole('log', { name: 'Conversation', exact: true });
    await expect(log.getByText('The storm has passed: here is your answer.')).toBeVisible({ timeout: 15_000 });
    await expect(app.getByRole('button', { name: 'Abort', exact: true })).toHaveCount(0);
    expect(scripted.requests).toHaveLength(4);
    // The partial text of the mid-stream failure is not left behind or duplicated.
    const text = (await log.textContent()) ?? '';
    expect(text.split('The storm has').length - 1).toBe(1);
    await expect(log.getByRole('article', { name: 'Claude', exact: true })).toHaveCount(1);
    await expect(log.getByRole('alert')).toHaveCount(0);
  });
});

test.describe('after the retry budget', () => {
  test.use({
    scenario: {
      name: 'overloaded-then-ok',
      turns: [
        { kind: 'fault', fault: 'overloaded' },
        { kind: 'fault', fault: 'overloaded' },
        { kind: 'text', text: 'Back again: answered after Retry now.' },
      ],
    },
    shellEnv: { WAYPOINT_API_RETRY_BASE_MS: '50', WAYPOINT_API_RETRY_MAX_ATTEMPTS: '1' },
  });

  test('"Retry now" on the error notice resends the kept message', async ({ app, scripted }) => {
    await send(app, 'Hello?');
    const log = app.getByRole('log', { name: 'Conversation', exact: true });
    await expect(log.getByRole('alert')).toContainText('Claude is overloaded right now (529)');
    expect(scripted.requests).toHaveLength(2);
    // The button is part of the error it answers, not far below it above the composer.
    await log.getByRole('alert').filter({ hasText: 'Claude is overloaded right now (529)' }).getByRole('button', { name: 'Retry now', exact: true }).click();
    await expect(log.getByText('Back again: answered after Retry now.')).toBeVisible();
    await expect(app.getByRole('button', { name: 'Retry now', exact: true })).toHaveCount(0);
    // The user's message was sent again as it was, not typed twice.
    const messages = (scripted.requests[2]!.body as { messages: { role: string; content: unknown }[] }).messages;
    expect(messages).toHaveLength(1);
    expect(JSON.stringify(messages[0]!.content)).toContain('Hello?');
    await expect(log.getByText('Hello?', { exact: true })).toHaveCount(1);
  });
});
