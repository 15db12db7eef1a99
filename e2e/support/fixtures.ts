import { test as base, expect, type Page } from '@playwright/test';
import { startScriptedServer, type ScriptedServer } from '../../test-support/scripted-api/server';
import type { Scenario } from '../../test-support/scripted-api/scenario';
import { startWebShell, type WebShell } from './web-shell';

interface Options {
  scenario: Scenario;
  /** null starts the web shell without any API key (onboarding). */
  apiKey: string | null | undefined;
}

interface Fixtures {
  scripted: ScriptedServer;
  shell: WebShell;
  app: Page;
}

/** Each test gets its own scripted Claude, its own web shell process and a page on it. */
export const test = base.extend<Options & Fixtures>({
  scenario: [{ name: 'echo', turns: [] }, { option: true }],
  apiKey: [undefined, { option: true }],
  scripted: async ({ scenario }, use) => {
    const server = await startScriptedServer({ scenario });
    await use(server);
    await server.close();
  },
  shell: async ({ scripted, apiKey }, use) => {
    const shell = await startWebShell({ baseURL: scripted.url, apiKey });
    await use(shell);
    await shell.stop();
  },
  app: async ({ page, shell }, use) => {
    await page.goto(shell.url);
    await use(page);
  },
});

export { expect };
