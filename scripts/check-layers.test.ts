import { describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { dirname, join, relative, resolve, sep } from 'node:path';

/**
 * The layering rules of design.md §1, checked on every .ts/.tsx file under src:
 *  - only src/main/electron and src/preload import 'electron' (static, dynamic or require);
 *  - src/shared imports nothing outside src/shared, and no Node built-ins;
 *  - src/renderer never imports from src/main;
 *  - src/preload imports only from src/shared (and itself), plus 'electron'.
 */

export interface LayerViolation {
  file: string;
  specifier: string;
  rule: string;
}

type Layer = 'shared' | 'renderer' | 'preload' | 'main/electron' | 'main' | 'other' | 'outside';

function layerOf(srcRoot: string, absPath: string): Layer {
  const rel = relative(srcRoot, absPath).split(sep).join('/');
  if (rel.startsWith('..')) return 'outside';
  if (rel === 'shared' || rel.startsWith('shared/')) return 'shared';
  if (rel === 'renderer' || rel.startsWith('renderer/')) return 'renderer';
  if (rel === 'preload' || rel.startsWith('preload/')) return 'preload';
  if (rel === 'main/electron' || rel.startsWith('main/electron/')) return 'main/electron';
  if (rel === 'main' || rel.startsWith('main/')) return 'main';
  return 'other';
}

const IMPORT_PATTERNS = [
  /\b(?:import|export)\s+(?:type\s+)?(?:[^'"`;]*?\s+from\s+)?['"]([^'"\n]+)['"]/g,
  /\bimport\s*\(\s*['"]([^'"\n]+)['"]\s*\)/g,
  /\brequire\s*\(\s*['"]([^'"\n]+)['"]\s*\)/g,
];

/** Every module specifier a file imports; comments are removed first so prose can't match. */
export function importsOf(source: string): string[] {
  const code = source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
  const found = new Set<string>();
  for (const pattern of IMPORT_PATTERNS) for (const match of code.matchAll(pattern)) found.add(match[1]!);
  return [...found];
}

const isElectron = (spec: string) => spec === 'electron' || spec.startsWith('electron/');
const isBuiltin = (spec: string) => spec.startsWith('node:') || builtinModules.includes(spec.split('/')[0]!);
const isRelative = (spec: string) => spec.startsWith('./') || spec.startsWith('../');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sourceFiles(path);
    return /\.(ts|tsx)$/.test(entry.name) ? [path] : [];
  });
}

export function checkLayers(srcRoot: string): LayerViolation[] {
  const root = resolve(srcRoot);
  const violations: LayerViolation[] = [];
  for (const file of sourceFiles(root)) {
    const from = layerOf(root, file);
    const name = relative(dirname(root), file).split(sep).join('/');
    const flag = (specifier: string, rule: string) => violations.push({ file: name, specifier, rule });
    for (const spec of importsOf(readFileSync(file, 'utf8'))) {
      const target = isRelative(spec) ? layerOf(root, resolve(dirname(file), spec)) : null;
      if (isElectron(spec) && from !== 'main/electron' && from !== 'preload') {
        flag(spec, "only src/main/electron and src/preload may import 'electron'");
      }
      if (from === 'shared') {
        if (target !== null && target !== 'shared') flag(spec, 'src/shared must not import from outside src/shared');
        if (isBuiltin(spec)) flag(spec, 'src/shared must not import Node built-ins');
      }
      if (from === 'renderer' && (target === 'main' || target === 'main/electron')) {
        flag(spec, 'src/renderer must not import from src/main');
      }
      if (from === 'preload') {
        if (target !== null && target !== 'shared' && target !== 'preload') flag(spec, 'src/preload may import only from src/shared');
        if (target === null && !isElectron(spec)) flag(spec, "src/preload may import only src/shared and 'electron'");
      }
    }
  }
  return violations;
}

export function formatViolations(violations: LayerViolation[]): string {
  return violations.map((v) => `${v.file}: imports '${v.specifier}' (${v.rule})`).join('\n');
}

describe('layering', () => {
  it('src follows the layering rules of design.md §1', () => {
    const src = fileURLToPath(new URL('../src', import.meta.url));
    expect(sourceFiles(src).length).toBeGreaterThan(20); // the scan really looked at the tree
    const violations = checkLayers(src);
    expect(violations, `Layering violations:\n${formatViolations(violations)}`).toEqual([]);
  });

  it('reports each offending file and import clearly', () => {
    const root = mkdtempSync(join(tmpdir(), 'waypoint-layers-'));
    const write = (path: string, text: string) => {
      mkdirSync(dirname(join(root, 'src', path)), { recursive: true });
      writeFileSync(join(root, 'src', path), text);
    };
    try {
      write('shared/bad.ts', "import { x } from '../main/agent/x';\nimport { readFileSync } from 'node:fs';\nimport path from 'path';\n");
      write('shared/good.ts', "import { z } from 'zod';\nimport { Plan } from './plan';\n// import 'electron' is only a comment\n");
      write('renderer/src/bad.tsx', "const { ipcRenderer } = require('electron');\nconst m = await import('../../main/app/services');\n");
      write('renderer/src/good.tsx', "import type { WaypointApi } from '../../shared/contract';\n");
      write('preload/bad.ts', "import { z } from 'zod';\nimport {\n  createServices,\n} from '../main/app/services';\n");
      write('preload/good.ts', "import { contextBridge } from 'electron';\nimport { calls } from '../shared/contract';\nimport { x } from './create-api';\n");
      write('main/agent/bad.ts', "export { app } from 'electron/main';\n");
      write('main/electron/good.ts', "import { app, BrowserWindow } from 'electron';\nimport { x } from '../app/services';\n");
      const violations = checkLayers(join(root, 'src'));
      expect(violations.map((v) => `${v.file} -> ${v.specifier}`).sort()).toEqual(
        [
          'src/main/agent/bad.ts -> electron/main',
          'src/preload/bad.ts -> ../main/app/services',
          'src/preload/bad.ts -> zod',
          'src/renderer/src/bad.tsx -> ../../main/app/services',
          'src/renderer/src/bad.tsx -> electron',
          'src/shared/bad.ts -> ../main/agent/x',
          'src/shared/bad.ts -> node:fs',
          'src/shared/bad.ts -> path',
        ].sort(),
      );
      const message = formatViolations(violations);
      expect(message).toContain("src/renderer/src/bad.tsx: imports 'electron' (only src/main/electron and src/preload may import 'electron')");
      expect(message).toContain("src/shared/bad.ts: imports 'node:fs' (src/shared must not import Node built-ins)");
      expect(message).toContain("src/preload/bad.ts: imports 'zod' (src/preload may import only src/shared and 'electron')");
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
