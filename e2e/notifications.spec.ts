import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { APP_JS, toolsEdit } from '../test-support/scenarios/tools-workspace';
import { expectAccessibleInBothSchemes } from './support/axe';
import { expect, test } from './support/fixtures';
import { openNewChat, send } from './support/plan-panel';

// The web shell's notifications (docs/contract.md §8) in real Chromium: the page's Notification is
// the browser's own, wrapped by an init script that records each one made, so the test can read
// what it says and click it as a person would click the system's toast.

declare global {
  interface Window {
    shownNotifications: Array<{ title: string; body: string; tag: string; notification: Notification }>;
  }
}

const approval = (page: Page) => page.getByRole('alertdialog', { name: /Approve/ });
const shown = (page: Page) => page.evaluate(() => window.shownNotifications.map(({ title, body, tag }) => ({ title, body, tag })));

test.use({ scenario: { ...toolsEdit, gated: true } });

test.beforeEach(async ({ context }) => {
  await context.grantPermissions(['notifications']);
  await context.addInitScript(() => {
    const Real = window.Notification;
    window.shownNotifications = [];
    window.Notification = class extends Real {
      constructor(title: string, options?: NotificationOptions) {
        super(title, options);
        window.shownNotifications.push({ title, body: options?.body ?? '', tag: options?.tag ?? '', notification: this });
      }
    };
  });
});

test('a chat out of view that asks for approval notifies with its title; a click opens it at the card; its finished run says "Done"', async ({ app, shell, scripted }) => {
  mkdirSync(join(shell.workspace, 'src'), { recursive: true });
  writeFileSync(join(shell.workspace, 'src', 'app.js'), APP_JS);

  // Off until the user turns it on; turning it on asks the browser (granted here), Save keeps it.
  await app.getByRole('button', { name: 'Settings', exact: true }).click();
  const settings = app.getByRole('dialog', { name: 'Settings', exact: true });
  const box = settings.getByRole('checkbox', { name: 'Notifications', exact: true });
  await expect(box).not.toBeChecked();
  await box.check();
  await expect(box).toBeChecked();
  await expectAccessibleInBothSchemes(app, 'Settings with Notifications');
  await settings.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(settings).toHaveCount(0);

  await send(app, 'Fix the answer in src/app.js');
  const title = app.getByRole('heading', { level: 1 });
  await expect(title).not.toHaveText('New chat');
  const asking = (await title.textContent())!;
  await openNewChat(app);
  expect(await shown(app)).toEqual([]);

  // The first chat's run goes on out of view and stops at the approval.
  await scripted.release(1);
  await expect.poll(() => shown(app)).toEqual([{ title: asking, body: 'Edit src/app.js — approve or deny it.', tag: expect.stringMatching(/^waypoint-chat-/) as unknown as string }]);
  await expect(approval(app)).toHaveCount(0);

  await app.evaluate(() => window.shownNotifications[0]!.notification.onclick?.(new Event('click')));
  await expect(title).toHaveText(asking);
  await expect(approval(app)).toBeVisible();

  await approval(app).getByRole('button', { name: 'Approve', exact: true }).click();
  await expect(approval(app)).toHaveCount(0);
  await openNewChat(app);
  await scripted.release(1);
  await expect.poll(async () => (await shown(app)).map((n) => n.body)).toEqual(['Edit src/app.js — approve or deny it.', 'Done']);
  expect((await shown(app))[1]!.title).toBe(asking);
});
