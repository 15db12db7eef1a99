import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { citeContract, citingFiles, NEW_PATH, OLD_NAME, recite } from './cite-contract.mjs';

/**
 * Code comments cite the product contract by section; it lives in the repository as
 * docs/contract.md, numbered like the design file it replaces, so citations can be repointed
 * mechanically by scripts/cite-contract.mjs.
 */

const repo = resolve(import.meta.dirname, '..');
const contract = readFileSync(join(repo, NEW_PATH), 'utf8');
const headings = [...contract.matchAll(/^## §(\d+) /gm)].map((match) => Number(match[1]));

describe('docs/contract.md', () => {
  it('has the sections §1–§12 in order, so section numbers cited in code keep their meaning', () => {
    expect(headings).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
  });

  it('has every section the code cites, under the old name or the new', () => {
    const cite = new RegExp(`(?:${OLD_NAME.replace('.', '\\.')}|${NEW_PATH.replace('.', '\\.')}),? (§\\d+(?:(?:,| and| or) §\\d+)*)`, 'g');
    const cited = new Set<number>();
    for (const file of citingFiles(repo)) {
      let text: string;
      try {
        text = readFileSync(join(repo, file), 'utf8');
      } catch {
        continue;
      }
      for (const match of text.matchAll(cite)) for (const n of match[1]!.matchAll(/§(\d+)/g)) cited.add(Number(n[1]));
    }
    expect(cited.size).toBeGreaterThan(0);
    expect([...cited].filter((n) => !headings.includes(n))).toEqual([]);
  });
});

describe('scripts/cite-contract.mjs', () => {
  it('repoints the bare name and the paths outside the repository, and nothing else', () => {
    const old = OLD_NAME;
    expect(recite(`see ${old} §5 and (../shared/${old} §2, §3); shared/${old}`)).toEqual({
      text: `see ${NEW_PATH} §5 and (${NEW_PATH} §2, §3); ${NEW_PATH}`,
      count: 3,
    });
    for (const other of [`docs/${old}`, `my${old}`, `${old}x`, 'design notes']) expect(recite(other)).toEqual({ text: other, count: 0 });
  });

  const roots: string[] = [];
  afterAll(() => roots.forEach((root) => rmSync(root, { recursive: true, force: true })));

  it('counts without --write, rewrites with it, and then finds nothing left (a real git work tree)', () => {
    const root = mkdtempSync(join(tmpdir(), 'waypoint-cite-'));
    roots.push(root);
    const files: Record<string, string> = {
      'src/main/a.ts': `// the pause model (${OLD_NAME} §1)\nexport const a = 1; // ${OLD_NAME} §5\n`,
      'e2e/b.spec.ts': `// ${OLD_NAME} §7\n`,
      'docs/notes.md': `${OLD_NAME} §3 is outside the citing folders\n`,
      'src/main/clean.ts': 'export const clean = 1;\n',
    };
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), text);
    }
    execFileSync('git', ['init', '-q'], { cwd: root });
    execFileSync('git', ['add', 'src/main/a.ts'], { cwd: root }); // one tracked, the others new: both are read

    const dry = citeContract(root);
    expect({ files: [...dry.files].sort(), citations: dry.citations }).toEqual({ files: ['e2e/b.spec.ts', 'src/main/a.ts'], citations: 3 });
    expect(readFileSync(join(root, 'src/main/a.ts'), 'utf8')).toBe(files['src/main/a.ts']);

    expect(citeContract(root, { write: true }).citations).toBe(3);
    expect(readFileSync(join(root, 'src/main/a.ts'), 'utf8')).toBe(`// the pause model (${NEW_PATH} §1)\nexport const a = 1; // ${NEW_PATH} §5\n`);
    expect(readFileSync(join(root, 'e2e/b.spec.ts'), 'utf8')).toBe(`// ${NEW_PATH} §7\n`);
    expect(readFileSync(join(root, 'docs/notes.md'), 'utf8')).toBe(files['docs/notes.md']);
    expect(citeContract(root)).toEqual({ files: [], citations: 0 });
  });
});

describe('citations', () => {
  // The citations were repointed with `node scripts/cite-contract.mjs --write`: from then on no
  // file may point at the design file outside the repository.
  it('no file under src/, test-support/, e2e/, bench/ or scripts/ mentions the design file outside the repository', () => {
    const mentioning = citingFiles(repo).filter((file) => {
      try {
        return readFileSync(join(repo, file), 'utf8').includes(OLD_NAME);
      } catch {
        return false;
      }
    });
    expect(mentioning).toEqual([]);
  });
});
