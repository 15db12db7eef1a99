import { expect, type Page } from '@playwright/test';
import type { Dialect } from '../../src/shared/plan';

/** The Task plan panel as a user (and a screen reader) finds it: docs/contract.md §5. */
export function planPanel(page: Page) {
  const region = page.getByRole('region', { name: 'Task plan', exact: true });
  return {
    region,
    header: region.getByRole('button', { name: /Task Plan/ }),
    progress: region.getByRole('progressbar'),
    steps: region.getByRole('listitem'),
    step: (title: string) => region.getByRole('listitem').filter({ hasText: title }).first(),
  };
}

/** Checks "N/M steps", the percentage and the progressbar together. */
export async function expectProgress(page: Page, completed: number, total: number): Promise<void> {
  const panel = planPanel(page);
  const percent = Math.round((100 * completed) / total);
  await expect(panel.region).toBeVisible();
  await expect(panel.header).toContainText(`${completed}/${total} steps`);
  await expect(panel.header).toContainText(`${percent}%`);
  await expect(panel.progress).toHaveAttribute('aria-valuenow', String(percent));
}

export async function choosePlanningStyle(page: Page, style: Dialect): Promise<void> {
  await page.getByRole('button', { name: 'Settings', exact: true }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Planning style').selectOption(style);
  await dialog.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByRole('dialog')).toHaveCount(0);
}

/** New chat, then wait until it is open: text typed before the switch belongs to the chat before. */
export async function openNewChat(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'New chat', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('New chat');
}

export async function send(page: Page, text: string): Promise<void> {
  await page.getByRole('textbox', { name: 'Message', exact: true }).fill(text);
  await page.getByRole('button', { name: 'Send', exact: true }).click();
}
