/**
 * The front matter of a SKILL.md: `name` and `description` between two `---` lines. No YAML
 * library is a dependency of Waypoint, and two text fields need none: this reads the small
 * subset skills use (plain, quoted and `>`/`|` block values; other keys, nested ones included,
 * are skipped) and refuses anything else with the reason, so a broken skill is listed as broken
 * rather than guessed at.
 */

/** Folder-safe: lowercase letters, digits and single hyphens (the Agent Skills naming rule), e.g. `pdf-forms`. */
export const SKILL_NAME = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const MAX_NAME = 64;
const MAX_DESCRIPTION = 1024;
const KEY_LINE = /^([A-Za-z_][\w-]*):(?:\s+(.*)|\s*)$/;

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
  const values = new Map<string, string>();
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (!line.trim() || line.trimStart().startsWith('#')) continue;
    if (/^\s/.test(line)) continue; // nested under a key this reader skips (metadata:, allowed-tools: lists)
    const match = KEY_LINE.exec(line);
    if (!match) return { ok: false, problem: `Line ${i + 2} of SKILL.md's front matter is not "key: value": ${JSON.stringify(line.slice(0, 80))}.` };
    const key = match[1]!;
    if (values.has(key)) return { ok: false, problem: `The front matter of SKILL.md gives "${key}:" twice.` };
    // The indented lines that follow belong to this key (a block value, or a plain value wrapped).
    const more: string[] = [];
    while (i + 1 < lines.length && (/^\s/.test(lines[i + 1]!) || !lines[i + 1]!.trim())) more.push(lines[++i]!);
    while (more.length && !more[more.length - 1]!.trim()) more.pop();
    if (key !== 'name' && key !== 'description') {
      values.set(key, '');
      continue;
    }
    const value = scalar(key, (match[2] ?? '').trim(), more);
    if (!value.ok) return value;
    values.set(key, value.text);
  }
  return { ok: true, values };
}

function scalar(key: string, head: string, more: string[]): { ok: true; text: string } | { ok: false; problem: string } {
  const rest = more.map((l) => l.trim());
  if (head === '|' || head === '>') {
    return { ok: true, text: head === '|' ? rest.join('\n') : rest.filter(Boolean).join(' ') };
  }
  if (head.startsWith('"')) {
    const whole = [head, ...rest].join(' ');
    try {
      const parsed: unknown = JSON.parse(whole);
      if (typeof parsed === 'string') return { ok: true, text: parsed };
    } catch {
      // Worded below.
    }
    return { ok: false, problem: `The "${key}:" of SKILL.md starts with a double quote but is not one quoted string.` };
  }
  if (head.startsWith("'")) {
    const whole = [head, ...rest].join(' ');
    // Inside, a quote is written twice ('it''s'); a lone one ends the string early.
    if (whole.length >= 2 && whole.endsWith("'") && !whole.slice(1, -1).replace(/''/g, '').includes("'")) {
      return { ok: true, text: whole.slice(1, -1).replace(/''/g, "'") };
    }
    return { ok: false, problem: `The "${key}:" of SKILL.md starts with a single quote but is not one quoted string.` };
  }
  if (/^[[{&*!%@`|>]/.test(head)) {
    return { ok: false, problem: `The "${key}:" of SKILL.md must be text (plain or quoted), not ${JSON.stringify(head.slice(0, 20))}.` };
  }
  return { ok: true, text: [head, ...rest].filter(Boolean).join(' ') };
}
