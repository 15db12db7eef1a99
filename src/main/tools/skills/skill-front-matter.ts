import { parseDocument } from 'yaml';

/**
 * The front matter of a SKILL.md: YAML between two `---` lines, read with the `yaml` package (a
 * well-kept parser: skills written for other tools use the whole of YAML, nested `metadata:` and
 * lists included). Only `name` and `description` are Waypoint's; a file that is not valid YAML, or
 * whose two fields are not text, is refused with the reason, so a broken skill is listed as broken
 * rather than guessed at.
 */

/** Folder-safe: lowercase letters, digits and single hyphens (the Agent Skills naming rule), e.g. `pdf-forms`. */
export const SKILL_NAME = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const MAX_NAME = 64;
const MAX_DESCRIPTION = 1024;

export type SkillFile = { ok: true; name: string; description: string; body: string } | { ok: false; problem: string };

export function parseSkillFile(text: string): SkillFile {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  if (lines[0]?.trim() !== '---') {
    return { ok: false, problem: 'SKILL.md has no front matter: it must begin with a line "---", then "name:" and "description:", then "---".' };
  }
  const end = lines.findIndex((line, i) => i > 0 && line.trim() === '---');
  if (end < 0) return { ok: false, problem: 'The front matter of SKILL.md is not closed by a "---" line.' };
  const fields = readFields(lines.slice(1, end));
  if (!fields.ok) return fields;
  const name = fields.values.get('name');
  const description = fields.values.get('description');
  if (name === undefined) return { ok: false, problem: 'The front matter of SKILL.md has no "name:".' };
  if (!SKILL_NAME.test(name) || name.length > MAX_NAME) {
    return { ok: false, problem: `The skill name "${name.slice(0, 80)}" is not a folder-safe word: use up to ${MAX_NAME} lowercase letters, digits and hyphens, like pdf-forms.` };
  }
  if (description === undefined || !description.trim()) return { ok: false, problem: `The front matter of SKILL.md has no "description:" (say what the skill is for and when to use it).` };
  if (description.length > MAX_DESCRIPTION) {
    return { ok: false, problem: `The description of skill ${name} is ${description.length.toLocaleString('en-US')} characters; at most ${MAX_DESCRIPTION.toLocaleString('en-US')} are allowed.` };
  }
  return { ok: true, name, description: description.trim(), body: lines.slice(end + 1).join('\n').trim() };
}

type Fields = { ok: true; values: Map<string, string> } | { ok: false; problem: string };

function readFields(lines: string[]): Fields {
  const doc = parseDocument(lines.join('\n'), { uniqueKeys: true });
  const error = doc.errors[0];
  if (error) {
    // The front matter starts on line 2 of the file (after the opening "---").
    const line = error.linePos?.[0]?.line;
    return { ok: false, problem: `The front matter of SKILL.md is not valid YAML${line ? ` (line ${line + 1})` : ''}: ${firstSentence(error.message)}` };
  }
  const data: unknown = doc.toJS();
  if (data === null || data === undefined) return { ok: true, values: new Map() };
  if (typeof data !== 'object' || Array.isArray(data)) return { ok: false, problem: 'The front matter of SKILL.md must be "key: value" lines, like "name: pdf-forms".' };
  const values = new Map<string, string>();
  for (const key of ['name', 'description'] as const) {
    if (!(key in data)) continue;
    const value = (data as Record<string, unknown>)[key];
    if (typeof value !== 'string') return { ok: false, problem: `The "${key}:" of SKILL.md must be text (plain or quoted), not ${describe(value)}.` };
    values.set(key, value);
  }
  return { ok: true, values };
}

/** The parser's message up to its first line break (the rest is a code excerpt), without its own position (ours is in the file's lines). */
function firstSentence(message: string): string {
  const first = message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '').trim();
  return first.endsWith('.') ? first : `${first}.`;
}

function describe(value: unknown): string {
  if (Array.isArray(value)) return 'a list';
  if (value === null) return 'empty';
  return typeof value === 'object' ? 'a map' : `a ${typeof value}`;
}
