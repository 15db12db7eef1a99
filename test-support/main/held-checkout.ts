import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Scenario } from '../scripted-api/scenario';

/**
 * A git repository whose `git worktree add` checkouts are held, deterministically, by its own
 * post-checkout hook (git runs it inside `worktree add`, before that returns): the hook makes the
 * new tree half-written (AGENTS.md garbled; the imported file, the skill and full.txt gone),
 * touches `marker`, and waits on a FIFO until `release` writes "go" (the tree is put back whole
 * and the checkout succeeds) or "fail" (the checkout fails). Anything read from the disk meanwhile
 * is visibly wrong, and nothing depends on timing.
 */
export const HELD_FULL_TEXT = 'FULL TREE: every file is here.';
export const HELD_AGENTS = 'Commit rule: tabs.\n@docs/style.md\n';
export const HELD_STYLE = 'Style from the commit.';

export interface HeldCheckout {
  marker: string;
  release(word: 'go' | 'fail'): Promise<void>;
}

/** A first reply that reads full.txt (whole only once the checkout is released), then "Done.". */
export const readsTheHeldTree: Scenario = {
  name: 'reads-the-tree',
  description: 'Reads full.txt in its first reply; then says done.',
  onExhausted: 'echo',
  turns: [
    { kind: 'tool_use', calls: [{ name: 'read_file', input: { path: 'full.txt' } }] },
    { kind: 'text', text: 'Done.' },
  ],
};

const ENV = { ...process.env, GIT_AUTHOR_NAME: 'T', GIT_AUTHOR_EMAIL: 't@example.com', GIT_COMMITTER_NAME: 'T', GIT_COMMITTER_EMAIL: 't@example.com' };
/** git in `cwd` with a fixed author (the test machine may have none), its output as text. */
export const git = (cwd: string, ...args: string[]): string => execFileSync('git', args, { cwd, env: ENV, encoding: 'utf8' });

/** Makes `ws` such a repository (files committed on main); the FIFO and marker go in `scratch`. */
export function heldCheckoutRepo(ws: string, scratch: string, files: Record<string, string> = {}): HeldCheckout {
  const all: Record<string, string> = {
    'AGENTS.md': HELD_AGENTS,
    'docs/style.md': HELD_STYLE,
    '.claude/skills/pdf-forms/SKILL.md': '---\nname: pdf-forms\ndescription: Fill in PDF forms.\n---\nBody.\n',
    'full.txt': HELD_FULL_TEXT,
    ...files,
  };
  for (const [rel, text] of Object.entries(all)) {
    mkdirSync(join(ws, rel, '..'), { recursive: true });
    writeFileSync(join(ws, rel), text);
  }
  git(ws, 'init', '--quiet', '--initial-branch=main');
  git(ws, 'add', '.');
  git(ws, 'commit', '--quiet', '-m', 'first');
  const fifo = join(scratch, 'hold.fifo');
  const marker = join(scratch, 'half-written');
  execFileSync('mkfifo', [fifo]);
  const hook = [
    '#!/bin/sh',
    'echo "HALF-WRITTEN" > AGENTS.md',
    'rm -rf docs .claude full.txt',
    `touch '${marker}'`,
    `read word < '${fifo}'`,
    // Not this hook again: `git checkout` runs post-checkout too.
    'git -c core.hooksPath=/dev/null checkout --quiet -- .',
    '[ "$word" = go ]',
  ].join('\n');
  writeFileSync(join(ws, '.git/hooks/post-checkout'), `${hook}\n`);
  chmodSync(join(ws, '.git/hooks/post-checkout'), 0o755);
  return { marker, release: (word) => writeFile(fifo, `${word}\n`) };
}
