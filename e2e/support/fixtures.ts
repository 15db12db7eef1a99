import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test as base, expect, type Page } from '@playwright/test';
import { startScriptedServer, type ScriptedServer } from '../../test-support/scripted-api/server';
import type { Scenario } from '../../test-support/scripted-api/scenario';
import { startWebShell, type WebShell } from './web-shell';

interface Options {
  scenario: Scenario;
  /** null starts the web shell without any API key (onboarding). */
  apiKey: string | null | undefined;
  /** Claude Desktop's {"mcpServers": {...}} JSON, passed to the shell with --mcp-config. */
  mcpConfig: { mcpServers: Record<string, unknown> } | null;
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
  mcpConfig: [null, { option: true }],
  scripted: async ({ scenario }, use) => {
    const server = await startScriptedServer({ scenario });
    await use(server);
    await server.close();
  },
  shell: async ({ scripted, apiKey, mcpConfig }, use, testInfo) => {
    const extraArgs: string[] = [];
    const configDir = mcpConfig ? mkdtempSync(join(tmpdir(), 'waypoint-mcp-config-')) : null;
    if (configDir) {
      writeFileSync(join(configDir, 'mcp.json'), JSON.stringify(mcpConfig));
      extraArgs.push('--mcp-config', join(configDir, 'mcp.json'));
    }
    const shell = await startWebShell({ baseURL: scripted.url, apiKey, extraArgs });
    await use(shell);
    // A failed test keeps what the shell printed (an exit, a crash, a refused frame): the page
    // alone shows only "Reconnecting…".
    if (testInfo.status !== testInfo.expectedStatus) await testInfo.attach('web shell output', { body: `exit code ${shell.process.exitCode ?? 'none (running)'}, signal ${shell.process.signalCode ?? 'none'}\n${shell.output()}`, contentType: 'text/plain' });
    await shell.stop();
    if (configDir) rmSync(configDir, { recursive: true, force: true });
  },
  app: async ({ page, shell }, use) => {
    await page.goto(shell.url);
    await use(page);
  },
});

export { expect };
