import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
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
  /** The workspace folder's own name (the header shows it), e.g. for the README's pictures. */
  workspaceName: string | null;
}

/** The standard fixtures, with the shell started on a prepared data dir and workspace. */
export const test = base.extend<RecoveryOptions>({
  settingsFile: [{}, { option: true }],
  shellEnv: [{}, { option: true }],
  workspaceFiles: [{}, { option: true }],
  workspaceName: [null, { option: true }],
  shell: async ({ scripted, apiKey, settingsFile, shellEnv, workspaceFiles, workspaceName }, use) => {
    const dataDir = mkdtempSync(join(tmpdir(), 'waypoint-e2e-data-'));
    const holder = mkdtempSync(join(tmpdir(), 'waypoint-e2e-ws-'));
    const workspace = workspaceName ? join(holder, workspaceName) : holder;
    mkdirSync(workspace, { recursive: true });
    writeFileSync(join(dataDir, 'settings.json'), JSON.stringify(settingsFile));
    for (const [rel, text] of Object.entries(workspaceFiles)) writeFileSync(join(workspace, rel), text);
    const shell = await startWebShell({ baseURL: scripted.url, apiKey, dataDir, workspace, extraEnv: shellEnv });
    await use(shell);
    await shell.stop();
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(holder, { recursive: true, force: true });
  },
});

export { expect };
