import type { Page } from '@playwright/test';
import type { ScriptedServer } from '../test-support/scripted-api/server';
import { expectAccessibleInBothSchemes } from './support/axe';
import { expect, test } from './support/fixtures';
import { openNewChat, send } from './support/plan-panel';
import { conversation } from './support/transcript';

// "Chat model" (issue 23 item 19): each chat picks its model in its header; the default stays in
// Settings. The chat's requests use its model, and the choice is still there after a reload.

test.use({ scenario: { name: 'echo', turns: [], onExhausted: 'echo' } });

const chatModel = (page: Page) => page.locator('header.header').getByRole('combobox', { name: 'Chat model', exact: true });

/** The model of the request that carried `text` (a title request may follow it). */
function modelOfRequestWith(scripted: ScriptedServer, text: string): string | undefined {
  return (scripted.requests.find((r) => JSON.stringify(r.body).includes(text))?.body as { model?: string } | undefined)?.model;
}

test("a chat's model is chosen in its header, its requests use it, and it survives a reload", async ({ app, scripted }) => {
  await send(app, 'First, with the default');
  await expect(conversation(app).getByText('You said: First, with the default')).toBeVisible();
  expect(modelOfRequestWith(scripted, 'First, with the default')).toBe('claude-sonnet-5-5');
  const picker = chatModel(app);
  await expect(picker.locator('option:checked')).toHaveText('Claude Sonnet 5.5');

  await picker.selectOption({ label: 'Claude Haiku 4.5' });
  // The id the Models API gave that name (the scripted one lists a dated id); the picker shows it
  // once main has kept the choice (the chat's summary comes back), so it is awaited, not read at once.
  await expect(picker).toHaveValue(/^claude-haiku-4-5/);
  const haiku = await picker.inputValue();
  await send(app, 'Then with the small model');
  await expect(conversation(app).getByText('You said: Then with the small model')).toBeVisible();
  expect(modelOfRequestWith(scripted, 'Then with the small model')).toBe(haiku);
  await expectAccessibleInBothSchemes(app, 'chat header with its model');

  // Another chat keeps the default in Settings, which did not change.
  await openNewChat(app);
  await send(app, 'Another chat');
  await expect(conversation(app).getByText('You said: Another chat')).toBeVisible();
  expect(modelOfRequestWith(scripted, 'Another chat')).toBe('claude-sonnet-5-5');
  await expect(chatModel(app)).toHaveValue('claude-sonnet-5-5');
  await app.getByRole('button', { name: 'Settings', exact: true }).click();
  await expect(app.getByRole('dialog').getByLabel('Model', { exact: true })).toHaveValue('claude-sonnet-5-5');
  await app.getByRole('dialog').getByRole('button', { name: 'Cancel', exact: true }).click();

  // After a reload, the first chat still has its model, and its next request uses it.
  await app.reload();
  await app.getByRole('navigation', { name: 'Chats', exact: true }).getByRole('button', { name: /First, with the default/ }).click();
  await expect(chatModel(app)).toHaveValue(haiku);
  await send(app, 'After the reload');
  await expect(conversation(app).getByText('You said: After the reload')).toBeVisible();
  expect(modelOfRequestWith(scripted, 'After the reload')).toBe(haiku);
});
