import { describe, expect, it } from 'vitest';
import { parseSkillFile } from './skill-front-matter';

const skill = (front: string, body = 'Do it this way.') => `---\n${front}\n---\n${body}\n`;

describe('SKILL.md front matter', () => {
  it('reads name, description and the body; other keys, nested ones included, are skipped', () => {
    const text = skill('name: pdf-forms\ndescription: Fill PDF forms.\nlicense: MIT\nmetadata:\n  author: someone\n  version: "1.0"\nallowed-tools:\n  - read_file');
    expect(parseSkillFile(text)).toEqual({ ok: true, name: 'pdf-forms', description: 'Fill PDF forms.', body: 'Do it this way.' });
  });

  it('reads YAML as other tools write it: flow lists, nested maps, comments, anchors', () => {
    const text = skill('# a skill made elsewhere\nname: pdf-forms\ndescription: &d Fill PDF forms.\nallowed-tools: [Read, "Bash(git:*)"]\nmetadata: { author: someone, tags: [pdf] }\nsummary: *d');
    expect(parseSkillFile(text)).toEqual({ ok: true, name: 'pdf-forms', description: 'Fill PDF forms.', body: 'Do it this way.' });
  });

  it('reads quoted, wrapped and block descriptions', () => {
    expect(parseSkillFile(skill('name: a\ndescription: "Use it: \\"always\\"."'))).toMatchObject({ description: 'Use it: "always".' });
    expect(parseSkillFile(skill("name: a\ndescription: 'It''s: fine'"))).toMatchObject({ description: "It's: fine" });
    expect(parseSkillFile(skill('name: a\ndescription: Fill forms\n  when asked.'))).toMatchObject({ description: 'Fill forms when asked.' });
    expect(parseSkillFile(skill('name: a\ndescription: >\n  Folded\n  text.'))).toMatchObject({ description: 'Folded text.' });
    expect(parseSkillFile(skill('name: a\ndescription: |\n  Line one\n  line two'))).toMatchObject({ description: 'Line one\nline two' });
  });

  it.each([
    ['no front matter', '# Just a title\nText.', 'SKILL.md has no front matter: it must begin with a line "---", then "name:" and "description:", then "---".'],
    ['an unclosed front matter', '---\nname: a\ndescription: b\n', 'The front matter of SKILL.md is not closed by a "---" line.'],
    ['no name', skill('description: b'), 'The front matter of SKILL.md has no "name:".'],
    ['a name that is not a folder-safe word', skill('name: ../etc\ndescription: b'), 'The skill name "../etc" is not a folder-safe word: use up to 64 lowercase letters, digits and hyphens, like pdf-forms.'],
    ['a name with spaces', skill('name: My Skill\ndescription: b'), 'The skill name "My Skill" is not a folder-safe word: use up to 64 lowercase letters, digits and hyphens, like pdf-forms.'],
    ['no description', skill('name: a'), 'The front matter of SKILL.md has no "description:" (say what the skill is for and when to use it).'],
    ['a line that is not key: value', skill('name: a\nthis is prose\ndescription: b'), 'The front matter of SKILL.md is not valid YAML (line 3): Implicit keys need to be on a single line.'],
    ['a key twice', skill('name: a\nname: b\ndescription: c'), 'The front matter of SKILL.md is not valid YAML (line 3): Map keys must be unique.'],
    ['an unclosed quote', skill('name: a\ndescription: "open'), 'The front matter of SKILL.md is not valid YAML (line 3): Missing closing "quote.'],
    ['a list for a description', skill('name: a\ndescription: [x, y]'), 'The "description:" of SKILL.md must be text (plain or quoted), not a list.'],
    ['a number for a name', skill('name: 12\ndescription: b'), 'The "name:" of SKILL.md must be text (plain or quoted), not a number.'],
    ['a list for the whole front matter', skill('- a\n- b'), 'The front matter of SKILL.md must be "key: value" lines, like "name: pdf-forms".'],
    ['a description too long', skill(`name: a\ndescription: ${'x'.repeat(1025)}`), 'The description of skill a is 1,025 characters; at most 1,024 are allowed.'],
  ])('refuses %s with the reason', (_what, text, problem) => {
    expect(parseSkillFile(text)).toEqual({ ok: false, problem });
  });
});
