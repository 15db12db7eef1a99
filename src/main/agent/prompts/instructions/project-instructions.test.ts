import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { EVERY_CHAT_NAME, MAX_INSTRUCTION_CHARS, ProjectInstructions } from './project-instructions';

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A temporary folder with these files (paths relative to it). */
function folder(files: Record<string, string>): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'wp-instr-')));
  made.push(dir);
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(join(dir, rel, '..'), { recursive: true });
    writeFileSync(join(dir, rel), text);
  }
  return dir;
}

describe('project instructions', () => {
  it('reads AGENTS.md and CLAUDE.md of the workspace and its parents up to the repository root, outermost first', async () => {
    const repo = folder({ 'AGENTS.md': 'Root rule.', 'pkg/app/AGENTS.md': 'App rule.', 'pkg/app/CLAUDE.md': 'Claude rule.', 'pkg/CLAUDE.md': 'Pkg rule.' });
    mkdirSync(join(repo, '.git'));
    const view = await new ProjectInstructions().read(join(repo, 'pkg/app'), '');
    expect(view.sources.map((s) => s.name)).toEqual(['../../AGENTS.md', '../CLAUDE.md', 'AGENTS.md', 'CLAUDE.md']);
    expect(view.prompt).toMatch(/## \.\.\/\.\.\/AGENTS\.md\n\nRoot rule\.[\s\S]*## \.\.\/CLAUDE\.md\n\nPkg rule\.[\s\S]*## AGENTS\.md\n\nApp rule\.[\s\S]*## CLAUDE\.md\n\nClaude rule\./);
  });

  it('without a repository reads the workspace alone, not the folders above it', async () => {
    const outer = folder({ 'AGENTS.md': 'Not this.', 'work/AGENTS.md': 'This.' });
    const view = await new ProjectInstructions().read(join(outer, 'work'), '');
    expect(view.sources.map((s) => s.name)).toEqual(['AGENTS.md']);
    expect(view.prompt).not.toContain('Not this.');
  });

  it('puts "Instructions for every chat" first, and works without a workspace', async () => {
    const view = await new ProjectInstructions().read(null, '  Answer in French.  ');
    expect(view.sources).toEqual([{ name: EVERY_CHAT_NAME, chars: 'Answer in French.'.length }]);
    expect(view.prompt).toContain(`## ${EVERY_CHAT_NAME}\n\nAnswer in French.`);
    expect((await new ProjectInstructions().read(null, ' ')).prompt).toBe('');
  });

  it('expands @path lines relative to the file, and lists the imported files', async () => {
    const ws = folder({ 'AGENTS.md': 'Top.\n@docs/style.md\nEnd.', 'docs/style.md': 'Style.\n@more/deep.md', 'docs/more/deep.md': 'Deep.' });
    const view = await new ProjectInstructions().read(ws, '');
    expect(view.prompt).toContain('Top.\nStyle.\nDeep.\nEnd.');
    expect(view.sources).toEqual([
      { name: 'AGENTS.md', chars: 24 },
      { name: 'docs/style.md', chars: 20, importedBy: 'AGENTS.md' },
      { name: 'docs/more/deep.md', chars: 5, importedBy: 'docs/style.md' },
    ]);
    expect(view.notes).toEqual([]);
  });

  it('does not follow an @import out of the workspace (.., absolute, symlink), to a missing file, or in a loop: each is noted in words', async () => {
    const secret = folder({ 'secret.txt': 'TOP SECRET' });
    const ws = folder({
      'AGENTS.md': ['@../secret.txt', `@${secret}/secret.txt`, '@link/secret.txt', '@missing.md', '@a.md', '```', '@not-an-import.md', '```'].join('\n'),
      'a.md': 'A.\n@b.md',
      'b.md': 'B.\n@a.md',
    });
    symlinkSync(secret, join(ws, 'link'));
    const view = await new ProjectInstructions().read(ws, '');
    expect(view.prompt).not.toContain('TOP SECRET');
    expect(view.notes).toEqual([
      '"@../secret.txt" in AGENTS.md was not imported: it is outside the workspace.',
      `"@${secret}/secret.txt" in AGENTS.md was not imported: only paths relative to the file are followed, inside the workspace.`,
      '"@link/secret.txt" in AGENTS.md was not imported: it leads outside the workspace.',
      '"@missing.md" in AGENTS.md was not imported: there is no such file in the workspace.',
      '"@a.md" in b.md was not imported: it leads back to a file already being imported (an import loop).',
    ]);
    expect(view.prompt).toContain('A.\nB.\n[Waypoint: "@a.md" in b.md was not imported');
    // Inside a code fence an @ line is text, not an import.
    expect(view.prompt).toContain('```\n@not-an-import.md\n```');
  });

  it(`cuts everything past ${MAX_INSTRUCTION_CHARS.toLocaleString('en-US')} characters, with a note naming what was left out`, async () => {
    const repo = folder({ 'AGENTS.md': 'a'.repeat(30_000), 'sub/AGENTS.md': 'b'.repeat(15_000), 'sub/CLAUDE.md': 'c'.repeat(10) });
    mkdirSync(join(repo, '.git'));
    const view = await new ProjectInstructions().read(join(repo, 'sub'), '');
    expect(view.prompt).toContain('a'.repeat(30_000));
    expect(view.prompt).toContain(`\n${'b'.repeat(10_000)}\n`);
    expect(view.prompt).not.toContain('b'.repeat(10_001));
    expect(view.prompt).not.toContain('ccc');
    const note = 'The project instructions come to 45,010 characters; only the first 40,000 are included. Left out: the rest of AGENTS.md, CLAUDE.md.';
    expect(view.notes).toEqual([note]);
    expect(view.prompt.endsWith(`[Waypoint: ${note}]`)).toBe(true);
    expect(view.sources.map((s) => [s.name, s.cut ?? false])).toEqual([['../AGENTS.md', false], ['AGENTS.md', true], ['CLAUDE.md', true]]);
  });

  it('reads a file again when it changed on disk, and not when it did not', async () => {
    const ws = folder({ 'AGENTS.md': 'First version.' });
    const instructions = new ProjectInstructions();
    expect((await instructions.read(ws, '')).prompt).toContain('First version.');
    writeFileSync(join(ws, 'AGENTS.md'), 'Second version, longer.');
    expect((await instructions.read(ws, '')).prompt).toContain('Second version, longer.');
    // Same size and same time as the cached read: the cache answers (one stat, no read).
    writeFileSync(join(ws, 'AGENTS.md'), 'Third version, longer.!');
    const when = new Date('2026-01-01T00:00:00Z');
    utimesSync(join(ws, 'AGENTS.md'), when, when);
    expect((await instructions.read(ws, '')).prompt).toContain('Third version, longer.!');
    writeFileSync(join(ws, 'AGENTS.md'), 'Fourth version, long.!!');
    utimesSync(join(ws, 'AGENTS.md'), when, when);
    expect((await instructions.read(ws, '')).prompt).toContain('Third version, longer.!');
    rmSync(join(ws, 'AGENTS.md'));
    expect((await instructions.read(ws, '')).prompt).toBe('');
  });
});
