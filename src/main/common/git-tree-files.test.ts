import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ProjectInstructions } from '../agent/prompts/instructions/project-instructions';
import { SkillCatalog } from '../tools/skills/skill-catalog';
import { GitTreeFiles } from './git-tree-files';

// A worktree's first request reads its instructions and skills from the commit while the
// checkout runs: the same files read from git's objects must give exactly what the checked-out
// tree gives from the disk — imports, links inside and outside, refusals and their words.

const ENV = { ...process.env, GIT_AUTHOR_NAME: 'T', GIT_AUTHOR_EMAIL: 't@example.com', GIT_COMMITTER_NAME: 'T', GIT_COMMITTER_EMAIL: 't@example.com' };
const git = (cwd: string, ...args: string[]): string => execFileSync('git', args, { cwd, env: ENV, encoding: 'utf8' });

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function repo(files: Record<string, string>, links: Record<string, string>): { repo: string; commit: string } {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'wp-tree-')));
  made.push(dir);
  const root = join(dir, 'repo');
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(join(root, rel, '..'), { recursive: true });
    writeFileSync(join(root, rel), text);
  }
  for (const [rel, target] of Object.entries(links)) {
    mkdirSync(join(root, rel, '..'), { recursive: true });
    symlinkSync(target, join(root, rel));
  }
  writeFileSync(join(dir, 'secret.txt'), 'TOP SECRET');
  git(root, 'init', '--quiet', '--initial-branch=main');
  git(root, 'add', '.');
  git(root, 'commit', '--quiet', '-m', 'first');
  return { repo: root, commit: git(root, 'rev-parse', 'HEAD').trim() };
}

describe('a commit read from git objects as if checked out', () => {
  it('gives the same instructions and skills as the checked-out tree on disk', async () => {
    const { repo: root, commit } = repo(
      {
        'AGENTS.md': ['Root rule.', '@docs/style.md', '@linked/style.md', '@out.md', '@missing.md', '@docs', '@a.md', '```', '@fenced.md', '```'].join('\n'),
        'docs/style.md': 'Style.\n@../pkg/deep.md',
        'pkg/deep.md': 'Deep.',
        'pkg/app/AGENTS.md': 'App rule.',
        'pkg/app/CLAUDE.md': 'Claude rule.\n@../../docs/style.md',
        'a.md': 'A.\n@b.md',
        'b.md': 'B.\n@a.md',
        '.claude/skills/pdf-forms/SKILL.md': '---\nname: pdf-forms\ndescription: Fill in PDF forms.\n---\nBody.\n',
        '.claude/skills/broken/SKILL.md': 'no front matter',
        '.claude/skills/no-skill/readme.md': 'not a skill',
        'pkg/app/.agents/skills/real/SKILL.md': '---\nname: real\ndescription: The real one.\n---\nReal.\n',
      },
      { linked: 'docs', 'out.md': '../secret.txt', 'pkg/app/.claude/skills/via-link': '../../.agents/skills/real' },
    );
    for (const workspace of [root, join(root, 'pkg/app')]) {
      const tree = new GitTreeFiles(root, commit, root);
      const fromDisk = await new ProjectInstructions().read(workspace, 'Every chat.');
      const fromTree = await new ProjectInstructions().read(workspace, 'Every chat.', tree);
      expect(fromTree).toEqual(fromDisk);
      const dataDir = join(root, '..', 'data');
      expect(await new SkillCatalog(dataDir).find(workspace, tree)).toEqual(await new SkillCatalog(dataDir).find(workspace));
    }
    // The comparison is not empty: what the disk gives is what the prompt should hold.
    const view = await new ProjectInstructions().read(root, '', new GitTreeFiles(root, commit, root));
    expect(view.prompt).toContain('Root rule.\nStyle.\nDeep.\nStyle.\nDeep.');
    expect(view.prompt).not.toContain('TOP SECRET');
    expect(view.notes).toContain('"@out.md" in AGENTS.md was not imported: it leads outside the workspace.');
    expect((await new SkillCatalog(join(root, '..', 'data')).find(join(root, 'pkg/app'), new GitTreeFiles(root, commit, root))).skills.map((s) => s.name)).toEqual(['real']);
  });

  it('reads the commit, not the files on disk: an edit after it is not seen', async () => {
    const again = repo({ 'AGENTS.md': 'Committed.' }, {});
    writeFileSync(join(again.repo, 'AGENTS.md'), 'Half-written.');
    const view = await new ProjectInstructions().read(again.repo, '', new GitTreeFiles(again.repo, again.commit, again.repo));
    expect(view.prompt).toContain('Committed.');
    expect(view.prompt).not.toContain('Half-written.');
  });
});
