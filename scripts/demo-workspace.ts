import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { RECOVERY_FILE, RECOVERY_FILE_TEXT } from '../test-support/scenarios/recovery-escalation';
import { UNDO_FILES } from '../test-support/scenarios/recovery-patterns';
import { PLAN_FIRST_FILES } from '../test-support/scenarios/plan-first';
import { APP_JS } from '../test-support/scenarios/tools-workspace';

/**
 * The files each demo scenario works on, so `npm run demo -- --scenario=NAME` shows the real
 * screens: an approval card with a diff (tools-edit), a stuck step asking for help
 * (recovery-escalation-*), a plan whose file changes "Undo plan" takes back.
 */
export const DEMO_FILES: Record<string, Record<string, string>> = {
  'tools-edit': { 'src/app.js': APP_JS },
  'tools-task': { 'src/app.js': APP_JS },
  'recovery-escalation-skip': { [RECOVERY_FILE]: RECOVERY_FILE_TEXT },
  'recovery-escalation-guidance': { [RECOVERY_FILE]: RECOVERY_FILE_TEXT },
  'recovery-escalation-abort': { [RECOVERY_FILE]: RECOVERY_FILE_TEXT },
  'recovery-undo-plan': UNDO_FILES,
  'plan-first': PLAN_FIRST_FILES,
};

/** Settings a demo scenario needs (settings.json in the demo's data folder). */
export const DEMO_SETTINGS: Record<string, Record<string, unknown>> = {
  // The proposal, revision and approval are the point; the file edits are not asked about again.
  'plan-first': { planFirst: true, autoApproveEdits: true },
};

export function seedSettings(dataDir: string, scenarioName: string): void {
  const settings = DEMO_SETTINGS[scenarioName];
  if (settings) writeFileSync(join(dataDir, 'settings.json'), JSON.stringify(settings));
}

export function seedWorkspace(workspace: string, scenarioName: string): string[] {
  const files = DEMO_FILES[scenarioName] ?? {};
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(dirname(join(workspace, rel)), { recursive: true });
    writeFileSync(join(workspace, rel), text);
  }
  return Object.keys(files);
}
