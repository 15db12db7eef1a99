import fs from 'node:fs/promises';
import { z } from 'zod';
import { defineTool } from '../define-tool';
import { fail, ok, type ToolDefinition } from '../tool';
import { skillFiles, type Skill } from './skill-catalog';
import { resolveSkillFile } from './skill-path';
import { SKILL_NAME } from './skill-front-matter';

/** A skill's file is read whole up to this; a longer one is cut with a note (skills hold instructions and small scripts). */
const MAX_FILE_BYTES = 100 * 1024;

const SkillName = z.string().min(1).max(64).regex(SKILL_NAME, { error: 'A skill name is lowercase letters, digits and hyphens, as the system prompt lists it.' });
const LoadInput = z.object({ name: SkillName.describe('The skill\'s name, as the system prompt lists it') }).strict();
const ReadInput = z
  .object({
    name: SkillName.describe('The skill\'s name'),
    path: z.string().min(1).max(1024).describe('A file of the skill, relative to its folder, as load_skill listed it, e.g. scripts/fill.py'),
  })
  .strict();

/**
 * load_skill and read_skill_file over the skills in use for this request (turned-off ones are
 * not in `skills`, so they are neither listed nor loadable). Both only read.
 */
export function createSkillTools(skills: readonly Skill[]): ToolDefinition[] {
  const byName = (name: string) => skills.find((s) => s.name === name);
  const unknown = (name: string) =>
    fail('not_found', `There is no skill named "${name}" in use. The skills available: ${skills.map((s) => s.name).join(', ') || 'none'}.`);
  const loadSkill = defineTool({
    name: 'load_skill',
    description: "Loads a skill's instructions (its SKILL.md) and lists its other files. Call it when a skill listed in the system prompt fits the task, before doing the task.",
    input: LoadInput,
    group: 'workspace',
    readOnly: true,
    label: 'Load a skill',
    summarize: (input) => `Load skill ${input.name}`,
    describeDryRun: (input) => `Read the instructions of skill ${input.name}`,
    needsApproval: () => false,
    async execute(input) {
      const skill = byName(input.name);
      if (!skill) return unknown(input.name);
      const { files, more } = await skillFiles(skill.dir);
      const list = files.length
        ? `\n\nThe skill's other files (read one with read_skill_file {"name": "${skill.name}", "path": …}):\n${files.map((f) => `- ${f}`).join('\n')}${more ? '\n- … (more files not listed)' : ''}`
        : '\n\nThe skill has no other files.';
      return ok(`${skill.body || '(SKILL.md has no instructions below its front matter.)'}${list}`);
    },
  });
  const readSkillFile = defineTool({
    name: 'read_skill_file',
    description: "Reads one file of a skill (a reference, template or script load_skill listed), by its path relative to the skill's folder.",
    input: ReadInput,
    group: 'workspace',
    readOnly: true,
    label: "Read a skill's file",
    summarize: (input) => `Read ${input.path} of skill ${input.name}`,
    describeDryRun: (input) => `Read ${input.path} of skill ${input.name}`,
    needsApproval: () => false,
    async execute(input) {
      const skill = byName(input.name);
      if (!skill) return unknown(input.name);
      const file = await resolveSkillFile(skill.dir, input.path);
      if (!file.ok) return fail(file.kind, file.problem);
      const handle = await fs.open(file.abs, 'r');
      try {
        const buffer = Buffer.alloc(MAX_FILE_BYTES + 1);
        const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
        const text = buffer.subarray(0, Math.min(bytesRead, MAX_FILE_BYTES)).toString('utf8');
        return ok(bytesRead > MAX_FILE_BYTES ? `${text}\n[Waypoint: ${file.rel} is longer than ${MAX_FILE_BYTES / 1024} KB; the rest is not shown.]` : text);
      } finally {
        await handle.close();
      }
    },
  });
  return [loadSkill, readSkillFile];
}

/** The system prompt's list of skills: names and descriptions only (a skill's body costs tokens only when loaded). */
export function skillListPrompt(skills: readonly Skill[]): string {
  if (skills.length === 0) return '';
  return [
    '# Skills',
    'These skills are available. When one fits the task, call load_skill with its name first and follow what it says; read its other files with read_skill_file.',
    ...skills.map((s) => `- ${s.name}: ${s.description}`),
  ].join('\n');
}
