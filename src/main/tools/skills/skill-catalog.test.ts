import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SkillCatalog } from './skill-catalog';
import { createSkillTools, skillListPrompt } from './skill-tools';

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function folder(files: Record<string, string>): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'wp-skills-')));
  made.push(dir);
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(join(dir, rel, '..'), { recursive: true });
    writeFileSync(join(dir, rel), text);
  }
  return dir;
}
const skillMd = (name: string, description: string, body = `How to ${name}.`) => `---\nname: ${name}\ndescription: ${description}\n---\n${body}\n`;
const ctx = { sessionId: 's', signal: new AbortController().signal, settings: {} as never };

async function call(tools: ReturnType<typeof createSkillTools>, name: string, input: unknown) {
  const tool = tools.find((t) => t.name === name)!;
  const parsed = tool.parse(input);
  if (!parsed.ok) return { ok: false as const, error: parsed.error };
  return tool.execute(parsed.value, ctx);
}

describe('skills', () => {
  it("are found under the workspace's .claude/skills and .agents/skills and the data folder's skills, malformed ones listed as broken", async () => {
    const ws = folder({
      '.claude/skills/pdf-forms/SKILL.md': skillMd('pdf-forms', 'Fill PDF forms.'),
      '.agents/skills/release/SKILL.md': skillMd('release', 'Cut a release.'),
      '.agents/skills/broken/SKILL.md': '# No front matter',
      '.agents/skills/not-a-skill/README.md': 'no SKILL.md here',
    });
    const data = folder({ 'skills/pdf-forms/SKILL.md': skillMd('pdf-forms', 'Another one.'), 'skills/notes/SKILL.md': skillMd('notes', 'Keep notes.') });
    const found = await new SkillCatalog(data).find(ws);
    expect(found.skills.map((s) => [s.name, s.where])).toEqual([
      ['pdf-forms', '.claude/skills/pdf-forms'],
      ['release', '.agents/skills/release'],
      ['notes', 'skills/notes (data folder)'],
    ]);
    expect(found.broken).toEqual([
      { where: '.agents/skills/broken', problem: 'SKILL.md has no front matter: it must begin with a line "---", then "name:" and "description:", then "---".' },
      { where: 'skills/pdf-forms (data folder)', problem: 'Another skill is already named pdf-forms (.claude/skills/pdf-forms); this one is not used.' },
    ]);
    expect(skillListPrompt(found.skills)).toBe(
      '# Skills\nThese skills are available. When one fits the task, call load_skill with its name first and follow what it says; read its other files with read_skill_file.\n- pdf-forms: Fill PDF forms.\n- release: Cut a release.\n- notes: Keep notes.',
    );
    // Only the data folder's, without a workspace.
    expect((await new SkillCatalog(data).find(null)).skills.map((s) => s.name)).toEqual(['notes', 'pdf-forms']);
  });

  it('load_skill returns the body and the other files; read_skill_file reads one, confined to the skill folder', async () => {
    const outside = folder({ 'secret.txt': 'TOP SECRET' });
    const ws = folder({
      '.claude/skills/pdf-forms/SKILL.md': skillMd('pdf-forms', 'Fill PDF forms.', 'Step 1: read reference.md.'),
      '.claude/skills/pdf-forms/reference.md': 'The reference.',
      '.claude/skills/pdf-forms/scripts/fill.py': 'print("fill")',
      '.claude/skills/other/SKILL.md': skillMd('other', 'Other.'),
      '.claude/skills/other/mine.md': 'Not pdf-forms\u2019 file.',
    });
    symlinkSync(join(outside, 'secret.txt'), join(ws, '.claude/skills/pdf-forms/escape.txt'));
    symlinkSync(outside, join(ws, '.claude/skills/pdf-forms/out'));
    const tools = createSkillTools((await new SkillCatalog(folder({})).find(ws)).skills);

    const loaded = await call(tools, 'load_skill', { name: 'pdf-forms' });
    expect(loaded).toEqual({
      ok: true,
      content: 'Step 1: read reference.md.\n\nThe skill\'s other files (read one with read_skill_file {"name": "pdf-forms", "path": …}):\n- reference.md\n- scripts/fill.py',
    });
    expect(await call(tools, 'read_skill_file', { name: 'pdf-forms', path: 'scripts/fill.py' })).toEqual({ ok: true, content: 'print("fill")' });

    const refused = async (path: string) => {
      const outcome = await call(tools, 'read_skill_file', { name: 'pdf-forms', path });
      expect(outcome.ok).toBe(false);
      return outcome.ok ? null : outcome.error;
    };
    expect(await refused('../other/mine.md')).toEqual({ kind: 'permission', message: expect.stringContaining('leads out of the skill\'s folder (".." is not allowed)') });
    expect(await refused(join(ws, '.claude/skills/pdf-forms/reference.md'))).toEqual({ kind: 'permission', message: expect.stringContaining('is not relative to the skill\'s folder') });
    expect(await refused('escape.txt')).toEqual({ kind: 'permission', message: '"escape.txt" leads out of the skill\'s folder (a symlink points elsewhere), so it is not read.' });
    expect(await refused('out/secret.txt')).toEqual({ kind: 'permission', message: '"out/secret.txt" leads out of the skill\'s folder (a symlink points elsewhere), so it is not read.' });
    expect(await refused('missing.md')).toEqual({ kind: 'not_found', message: expect.stringContaining('The skill has no file "missing.md".') });
    expect(await refused('scripts')).toEqual({ kind: 'invalid_parameter', message: expect.stringContaining('"scripts" is a folder, not a file.') });
    expect(await call(tools, 'load_skill', { name: 'nope' })).toEqual({ ok: false, error: { kind: 'not_found', message: 'There is no skill named "nope" in use. The skills available: other, pdf-forms.' } });
    expect((await call(tools, 'load_skill', { name: '../x' })).ok).toBe(false);
  });

  it('a skill edited on disk is read again', async () => {
    const ws = folder({ '.claude/skills/a/SKILL.md': skillMd('a', 'First.') });
    const catalog = new SkillCatalog(folder({}));
    expect((await catalog.find(ws)).skills[0]!.description).toBe('First.');
    writeFileSync(join(ws, '.claude/skills/a/SKILL.md'), skillMd('a', 'Second, longer.'));
    expect((await catalog.find(ws)).skills[0]!.description).toBe('Second, longer.');
  });
});
