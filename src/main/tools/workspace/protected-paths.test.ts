import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeWorkspace, type TempWorkspace } from '../../../../test-support/main/test-workspace';
import { isGitSegment } from '../../../shared/git-names';
import { gitPathReason, protectedChangeReason } from './protected-paths';

// The rule that decides which file changes always ask (docs/security.md "Protected changes").

/** An ordinary folder or file name: letters, digits and a few marks, never git's folder. */
const plainSegment = fc
  .stringMatching(/^[A-Za-z0-9_][A-Za-z0-9_.-]{0,11}$/)
  .filter((s) => !isGitSegment(s));
/** `.git` as some file system may spell it: any case, NTFS's trailing dots/spaces or stream, HFS+'s ignored code points. */
const gitSpelling = fc
  .tuple(
    fc.array(fc.boolean(), { minLength: 4, maxLength: 4 }),
    fc.constantFrom('', '.', ' ', '..', '. ', '::$INDEX_ALLOCATION'),
    fc.constantFrom('', '\u200c', '\ufeff'),
  )
  .map(([upper, tail, ignorable]) => {
    const letters = ['.', 'g', 'i', 't'].map((ch, i) => (upper[i] ? ch.toUpperCase() : ch));
    return `${letters.slice(0, 2).join('')}${ignorable}${letters.slice(2).join('')}${tail}`;
  });

describe('the .git segment matcher', () => {
  it('any path with a .git segment, in any spelling and at any depth, is protected', () => {
    fc.assert(
      fc.property(fc.array(plainSegment, { maxLength: 4 }), gitSpelling, fc.array(plainSegment, { maxLength: 4 }), (before, git, after) => {
        expect(gitPathReason([...before, git, ...after].join('/'))).not.toBeNull();
      }),
    );
  });

  it('a path without one is not (.gitignore, .github, git, .git-blame-ignore-revs, my.git are ordinary)', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(plainSegment, fc.constantFrom('.gitignore', '.github', 'git', '.git-blame-ignore-revs', 'my.git', '.gitmodules')), { minLength: 1, maxLength: 6 }), (parts) => {
        expect(gitPathReason(parts.join('/'))).toBeNull();
      }),
    );
  });

  it('says what the change is: a hook, the configuration, git own files', () => {
    expect(gitPathReason('.git/hooks/pre-commit')).toMatch(/git hook \(\.git\/hooks\/pre-commit\)/);
    expect(gitPathReason('.git/config')).toMatch(/git's configuration/);
    expect(gitPathReason('sub/.Git/config')).toMatch(/git's configuration \(sub\/\.Git\/config\)/);
    expect(gitPathReason('.git/info/attributes')).toMatch(/git's configuration/);
    expect(gitPathReason('.git/refs/heads/main')).toMatch(/git's own files/);
    expect(gitPathReason('lib/.git')).toMatch(/which folder git takes as the repository/);
    expect(gitPathReason('GIT~1/config')).toMatch(/git's configuration/);
    // The user's own git configuration, which every repository reads (workspace = home).
    expect(gitPathReason('.gitconfig')).toMatch(/git's configuration \(\.gitconfig\)/);
    expect(gitPathReason('dotfiles/.GitConfig')).toMatch(/git's configuration/);
  });
});

describe('protectedChangeReason on a real workspace', () => {
  let ws: TempWorkspace;
  beforeEach(() => {
    ws = makeWorkspace();
  });
  afterEach(() => ws.cleanup());

  it('a symlink to .git is followed to where it leads', () => {
    ws.write('.git/config', '[core]\n');
    fs.symlinkSync('.git', path.join(ws.root, 'cfg'));
    expect(protectedChangeReason(ws.root, 'cfg/config')).toMatch(/git's configuration/);
    expect(protectedChangeReason(ws.root, 'src/app.ts')).toBeNull();
  });

  it('a repository folder not named .git (separate git dir, bare repository, a .git file target) is found by its contents', () => {
    // `git init --separate-git-dir=gitdata`: the worktree's .git is a file naming gitdata.
    ws.write('.git', 'gitdir: gitdata\n');
    ws.write('gitdata/HEAD', 'ref: refs/heads/main\n');
    ws.write('gitdata/config', '[core]\n');
    fs.mkdirSync(path.join(ws.root, 'gitdata/objects'));
    fs.mkdirSync(path.join(ws.root, 'gitdata/refs'));
    ws.write('gitdata/hooks/pre-commit', '#!/bin/sh\n');
    // A linked worktree's own folder has HEAD and commondir.
    ws.write('wt-admin/HEAD', 'ref: refs/heads/x\n');
    ws.write('wt-admin/commondir', '../gitdata\n');
    expect(protectedChangeReason(ws.root, 'gitdata/config')).toMatch(/git's configuration \(gitdata\/config\)/);
    expect(protectedChangeReason(ws.root, 'gitdata/hooks/pre-commit')).toMatch(/git hook/);
    expect(protectedChangeReason(ws.root, 'gitdata/hooks/new-hook')).toMatch(/git hook/);
    expect(protectedChangeReason(ws.root, 'wt-admin/config')).toMatch(/git's configuration/);
    expect(protectedChangeReason(ws.root, '.git')).toMatch(/which folder git takes/);
    // A folder with only a HEAD file is not a repository: its files are ordinary.
    ws.write('notes/HEAD', 'just a file\n');
    expect(protectedChangeReason(ws.root, 'notes/config')).toBeNull();
  });

  it("git's folder of user configuration (XDG_CONFIG_HOME/git: config, attributes, hooks) is protected where it really is", () => {
    const saved = process.env.XDG_CONFIG_HOME;
    process.env.XDG_CONFIG_HOME = path.join(ws.root, 'conf');
    try {
      ws.write('conf/git/config', '[core]\n');
      fs.symlinkSync('conf', path.join(ws.root, 'cfg-link'));
      expect(protectedChangeReason(ws.root, 'conf/git/config')).toMatch(/git's configuration for every repository/);
      expect(protectedChangeReason(ws.root, 'cfg-link/git/attributes')).toMatch(/git's configuration for every repository/);
      expect(protectedChangeReason(ws.root, 'conf/other/config')).toBeNull();
      // Not made yet: a write would make it, so it is protected all the same.
      fs.rmSync(path.join(ws.root, 'conf'), { recursive: true });
      expect(protectedChangeReason(ws.root, 'conf/git/config')).toMatch(/git's configuration for every repository/);
    } finally {
      if (saved === undefined) delete process.env.XDG_CONFIG_HOME;
      else process.env.XDG_CONFIG_HOME = saved;
    }
  });

  it('the workspace root itself being a bare repository protects its config and hooks', () => {
    ws.write('HEAD', 'ref: refs/heads/main\n');
    fs.mkdirSync(path.join(ws.root, 'objects'));
    fs.mkdirSync(path.join(ws.root, 'refs'));
    expect(protectedChangeReason(ws.root, 'config')).toMatch(/git's configuration/);
    expect(protectedChangeReason(ws.root, 'hooks/post-merge')).toMatch(/git hook/);
  });
});
