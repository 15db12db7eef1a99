import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test as base, expect } from './fixtures';
import { startWebShell } from './web-shell';

interface RecoveryOptions {
  /** Written to the shell's settings.json before it starts (e.g. auto-approve edits). */
  settingsFile: Record<string, unknown>;
  /** Extra environment for the shell, e.g. a short API backoff. */
  shellEnv: Record<string, string>;
  /** Files put in the workspace before the shell starts. */
  workspaceFiles: Record<string, string>;
}

/** The standard fixtures, with the shell started on a prepared data dir and workspace. */
export const test = base.extend<RecoveryOptions>({
  settingsFile: [{}, { option: true }],
  shellEnv: [{}, { option: true }],
  workspaceFiles: [{}, { option: true }],
  shell: async ({ scripted, apiKey, settingsFile, shellEnv, workspaceFiles }, use) => {
    const dataDir = mkdtempSync(join(tmpdir(), 'waypoint-e2e-data-'));
    const workspace = mkdtempSync(join(tmpdir(), 'waypoint-e2e-ws-'));
    writeFileSync(join(dataDir, 'settings.json'), JSON.stringify(settingsFile));
    for (const [rel, text] of Object.entries(workspaceFiles)) writeFileSync(join(workspace, rel), text);
    const shell = await startWebShell({ baseURL: scripted.url, apiKey, dataDir, workspace, extraEnv: shellEnv });
    await use(shell);
    await shell.stop();
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(workspace, { recursive: true, force: true });
  },
});

export { expect };
