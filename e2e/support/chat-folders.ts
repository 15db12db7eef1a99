import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { expect } from './fixtures';
import { openNewChat, send } from './plan-panel';

/** The id of the chat (its folder under `sessions`) whose log holds `text`. */
export function chatIdHolding(sessions: string, text: string): string {
  const id = readdirSync(sessions).find((d) => {
    try {
      return readFileSync(join(sessions, d, 'events.jsonl'), 'utf8').includes(text);
    } catch {
      return false;
    }
  });
  if (!id) throw new Error(`no chat log holds "${text}"`);
  return id;
}

/**
 * Two chats as a person makes them against the echo scenario: `first` in the open chat, `second`
 * in a new one, each seen answered (so both are in their logs before the shell stops).
 */
export async function twoEchoChats(page: Page, first: string, second: string): Promise<void> {
  const log = page.getByRole('log', { name: 'Conversation', exact: true });
  await send(page, first);
  await expect(log.getByText(`You said: ${first}`)).toBeVisible();
  await openNewChat(page);
  await send(page, second);
  await expect(log.getByText(`You said: ${second}`)).toBeVisible();
}
