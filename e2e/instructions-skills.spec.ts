import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ScriptedServer } from '../test-support/scripted-api/server';
import { expectAccessibleInBothSchemes } from './support/axe';
import { expect, test } from './support/fixtures';
import { send } from './support/plan-panel';
import { conversation } from './support/transcript';

// Project instructions and skills (issue 28) in Chromium against the built web shell: the
// workspace's AGENTS.md and a skill reach the request, the header's "Instructions" lists the
// file, Settings "Skills" shows "Use skill NAME", and turning it off takes the skill out of the
// next request (read off the scripted server).

test.use({ scenario: { name: 'echo', turns: [], onExhausted: 'echo' } });

interface Sent {
  system: Array<{ text: string }>;
  tools?: Array<{ name: string }>;
}
function requestWith(scripted: ScriptedServer, text: string): Sent {
  const found = scripted.requests.find((r) => JSON.stringify((r.body as { messages: unknown }).messages).includes(text));
  if (!found) throw new Error(`no request carried "${text}"`);
  return found.body as Sent;
}
const systemOf = (r: Sent) => r.system.map((b) => b.text).join('\n');

test('AGENTS.md and a skill reach the request; "Instructions" lists the file; a skill turned off in Settings leaves the next request', async ({ app, shell, scripted }) => {
  writeFileSync(join(shell.workspace, 'AGENTS.md'), 'Always write tests first.');
  mkdirSync(join(shell.workspace, '.claude/skills/pdf-forms'), { recursive: true });
  writeFileSync(join(shell.workspace, '.claude/skills/pdf-forms/SKILL.md'), '---\nname: pdf-forms\ndescription: Fill in PDF forms.\n---\nThe steps.\n');

  await send(app, 'First message');
  await expect(conversation(app).getByText('You said: First message')).toBeVisible();
  const first = requestWith(scripted, 'First message');
  expect(systemOf(first)).toContain('## AGENTS.md\n\nAlways write tests first.');
  expect(systemOf(first)).toContain('- pdf-forms: Fill in PDF forms.');
  expect((first.tools ?? []).map((t) => t.name)).toContain('load_skill');

  await app.locator('header.header').getByRole('button', { name: 'Instructions', exact: true }).click();
  const dialog = app.getByRole('dialog', { name: 'Instructions', exact: true });
  await expect(dialog.getByRole('list', { name: 'Instruction files in use', exact: true }).getByRole('listitem')).toHaveText(['AGENTS.md (25 characters)']);
  await expectAccessibleInBothSchemes(app, 'Instructions dialog');
  await app.keyboard.press('Escape');
  await expect(dialog).toBeHidden();

  await app.getByRole('button', { name: 'Settings', exact: true }).click();
  const settings = app.getByRole('dialog', { name: 'Settings', exact: true });
  const use = settings.getByRole('group', { name: 'Skills', exact: true }).getByRole('checkbox', { name: 'Use skill pdf-forms', exact: true });
  await expect(use).toBeChecked();
  await expectAccessibleInBothSchemes(app, 'Settings with skills');
  await use.uncheck();
  await settings.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(settings).toBeHidden();

  await send(app, 'Second message');
  await expect(conversation(app).getByText('You said: Second message')).toBeVisible();
  const second = requestWith(scripted, 'Second message');
  expect(systemOf(second)).toContain('Always write tests first.');
  expect(systemOf(second)).not.toContain('pdf-forms');
  expect((second.tools ?? []).map((t) => t.name)).not.toContain('load_skill');
});
