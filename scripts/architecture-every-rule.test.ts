import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Every rule in .dependency-cruiser.cjs, read from the config itself, must go red on a violation
 * planted for it (architecture.test.ts checks a fixed set exactly; this one keeps up as rules are
 * added). A rule that forbids one src/main folder importing another gets its violation worked
 * out from its own patterns, so a new floor is covered the day its rule lands; any other rule
 * needs an entry in BY_HAND, and the test names a rule that has none.
 */

const repo = resolve(import.meta.dirname, '..');
const DEPCRUISE = join(repo, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs');
const CONFIG = join(repo, '.dependency-cruiser.cjs');

type Pattern = string | string[] | undefined;
interface Side {
  path?: Pattern;
  pathNot?: Pattern;
  [condition: string]: unknown;
}
interface Rule {
  name: string;
  from: Side;
  to: Side;
}
/** Files to write, and the one the rule must report as the violation's origin. */
interface Plant {
  files: Record<string, string>;
  from: string;
}

const rules = (createRequire(import.meta.url)(CONFIG) as { forbidden: Rule[] }).forbidden;

/** The rooms of src/main as they are in the repository (new ones included). */
const FOLDERS = readdirSync(join(repo, 'src/main'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
  .sort();

const regex = (pattern: Exclude<Pattern, undefined>) => new RegExp(Array.isArray(pattern) ? pattern.join('|') : pattern);
const fits = (side: Side, path: string) =>
  (side.path === undefined || regex(side.path).test(path)) && (side.pathNot === undefined || !regex(side.pathNot).test(path));
const onlyPaths = (side: Side) => Object.keys(side).every((key) => key === 'path' || key === 'pathNot');
const target = (folder: string) => `src/main/${folder}/target.ts`;

/** A file in one src/main folder importing another's, if the rule is about folders and some pair breaks it. */
function folderPlant(rule: Rule): Plant | null {
  if (!onlyPaths(rule.from) || !onlyPaths(rule.to)) return null;
  for (const from of FOLDERS) {
    const file = `src/main/${from}/planted-${rule.name}.ts`;
    if (!fits(rule.from, file)) continue;
    const to = FOLDERS.find((other) => other !== from && fits(rule.to, target(other)));
    if (to) return { from: file, files: { [file]: `import { target } from '../${to}/target';\nexport const planted = target;\n` } };
  }
  return null;
}

/** Rules that are not about one folder of src/main importing another. */
const BY_HAND: Record<string, Plant> = {
  'no-circular': {
    from: 'src/main/common/planted-loop-a.ts',
    files: {
      'src/main/common/planted-loop-a.ts': "import type { B } from './planted-loop-b';\nexport type A = B | 1;\n",
      'src/main/common/planted-loop-b.ts': "import type { A } from './planted-loop-a';\nexport type B = A | 2;\n",
    },
  },
  'no-circular-at-runtime-in-the-renderer': {
    from: 'src/renderer/src/planted-loop-a.ts',
    files: {
      'src/renderer/src/planted-loop-a.ts': "import { b } from './planted-loop-b';\nexport const a = () => b;\n",
      'src/renderer/src/planted-loop-b.ts': "import { a } from './planted-loop-a';\nexport const b = () => a;\n",
    },
  },
  'only-the-electron-shell-imports-electron': {
    from: 'src/main/common/planted-electron.ts',
    files: { 'src/main/common/planted-electron.ts': "import { app } from 'electron';\nexport const planted = app;\n" },
  },
  'shared-imports-only-shared': {
    from: 'src/shared/planted-node.ts',
    files: { 'src/shared/planted-node.ts': "import { readFileSync } from 'node:fs';\nexport const planted = readFileSync;\n" },
  },
  'renderer-never-imports-main': {
    from: 'src/renderer/src/planted-main.ts',
    files: { 'src/renderer/src/planted-main.ts': "import { target } from '../../main/common/target';\nexport const planted = target;\n" },
  },
  'preload-imports-only-shared': {
    from: 'src/preload/planted-renderer.ts',
    files: {
      'src/preload/planted-renderer.ts': "import { view } from '../renderer/src/view';\nexport const planted = view;\n",
      'src/renderer/src/view.ts': 'export const view = 1;\n',
    },
  },
  'production-never-imports-tests': {
    from: 'src/main/common/planted-harness.ts',
    files: {
      'src/main/common/planted-harness.ts': "import { kit } from '../../../test-support/kit';\nexport const planted = kit;\n",
      'test-support/kit.ts': 'export const kit = 1;\n',
    },
  },
  'no-unresolvable': {
    from: 'src/main/common/planted-missing.ts',
    files: { 'src/main/common/planted-missing.ts': "import { nothing } from './not-there';\nexport const planted = nothing;\n" },
  },
};

/** Files that keep every rule, however close they come: a type-only loop in the renderer (its store's slices have one). */
const KEEPS: Record<string, string> = {
  'src/renderer/src/kept-slice-a.ts': "import type { B } from './kept-slice-b';\nexport type A = { b?: B };\nexport const a = 1;\n",
  'src/renderer/src/kept-slice-b.ts': "import type { A } from './kept-slice-a';\nexport type B = { a?: A };\nexport const b = 2;\n",
};

const plants = new Map(rules.map((rule) => [rule.name, BY_HAND[rule.name] ?? folderPlant(rule)]));

interface Violation {
  from: string;
  to: string;
  rule: { name: string };
}
let root: string;
let violations: Violation[] = [];

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'waypoint-every-rule-'));
  const files: Record<string, string> = { ...KEEPS, ...Object.fromEntries(FOLDERS.map((folder) => [target(folder), 'export const target = 1;\n'])) };
  for (const plant of plants.values()) Object.assign(files, plant?.files);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  writeFileSync(join(root, 'tsconfig.json'), JSON.stringify({ compilerOptions: { module: 'ESNext', moduleResolution: 'Bundler' } }));
  // 'electron' resolved into node_modules/, where the rules look for it (a stand-in package).
  mkdirSync(join(root, 'node_modules/electron'), { recursive: true });
  writeFileSync(join(root, 'node_modules/electron/package.json'), JSON.stringify({ name: 'electron', main: 'index.js' }));
  writeFileSync(join(root, 'node_modules/electron/index.js'), 'module.exports = {};\n');
  symlinkSync(join(repo, 'node_modules/zod'), join(root, 'node_modules/zod'), 'dir');
  const run = spawnSync(process.execPath, [DEPCRUISE, 'src', '--config', CONFIG, '--output-type', 'json'], { cwd: root, encoding: 'utf8' });
  violations = (JSON.parse(run.stdout) as { summary: { violations: Violation[] } }).summary.violations;
}, 120_000);
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('every architecture rule', () => {
  it('has a planted violation (worked out for folder rules, BY_HAND for the rest), and BY_HAND names only real rules', () => {
    expect([...plants].filter(([, plant]) => plant === null).map(([name]) => name)).toEqual([]);
    expect(Object.keys(BY_HAND).filter((name) => !plants.has(name))).toEqual([]);
  });

  it.each(rules.map((rule) => [rule.name]))('%s reports its planted violation', (name) => {
    const plant = plants.get(name);
    if (!plant) throw new Error(`Rule ${name} has no planted violation: add one to BY_HAND in this file.`);
    const reported = violations.filter((violation) => violation.rule.name === name).map((violation) => violation.from);
    expect(reported).toContain(plant.from);
  });

  it('reports nothing from the files that keep the rules (targets, a type-only loop)', () => {
    const fromPlants = new Set([...plants.values()].flatMap((plant) => (plant ? Object.keys(plant.files) : [])));
    expect(violations.filter((violation) => !fromPlants.has(violation.from))).toEqual([]);
  });
});
