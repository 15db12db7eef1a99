import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { ESLint } from 'eslint';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The architecture rules (.dependency-cruiser.cjs) and the lint (eslint.config.js) run over the
 * real tree in `npm run lint`, part of npm test. Here they are shown to go red: a small tree
 * planted in a temp folder breaks each rule once, next to files that keep them, and the repo's
 * own configuration must report exactly the planted violations.
 */

const repo = resolve(import.meta.dirname, '..');
const DEPCRUISE = join(repo, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs');

const PLANTED: Record<string, string> = {
  // Files that keep the rules.
  'src/shared/contract.ts': "import { z } from 'zod';\nexport const Id = z.string();\n// import 'electron' is only a comment\n",
  'src/main/common/emitter.ts': 'export const emit = 1;\n',
  'src/main/tools/tool.ts': "import { emit } from '../common/emitter';\nexport const tool = emit;\n",
  'src/main/plan/engine.ts': "import { tool } from '../tools/tool';\nexport const engine = tool;\n",
  'src/main/agent/chat-service.ts': "import { engine } from '../plan/engine';\nexport class ChatService { e = engine; }\n",
  'src/main/app/services.ts': "import { ChatService } from '../agent/chat-service';\nexport const services = new ChatService();\n",
  'src/main/electron/window.ts': "import { BrowserWindow } from 'electron';\nimport { services } from '../app/services';\nexport const window = [BrowserWindow, services];\n",
  'src/main/web/server.ts': "import { services } from '../app/services';\nexport const server = services;\n",
  'src/preload/index.ts': "import { contextBridge } from 'electron';\nimport { Id } from '../shared/contract';\nexport const api = [contextBridge, Id];\n",
  'src/renderer/src/App.tsx': "import { Id } from '../../shared/contract';\nexport const App = Id;\n",
  // A test may import upward and use test support: tests are not floors.
  'src/main/plan/engine.test.ts': "import { ChatService } from '../agent/chat-service';\nimport { kit } from '../../../test-support/main/kit';\nexport const t = [ChatService, kit];\n",
  'test-support/main/kit.ts': "import { services } from '../../src/main/app/services';\nexport const kit = services;\n",

  // One violation per rule.
  'src/main/plan/upward.ts': "import type { ChatService } from '../agent/chat-service';\nexport type T = ChatService;\n",
  'src/main/tools/loop-a.ts': "import { b } from './loop-b';\nexport const a = () => b;\n",
  'src/main/tools/loop-b.ts': "import { a } from './loop-a';\nexport const b = () => a;\n",
  'src/main/recovery/peer.ts': "import { engine } from '../plan/engine';\nexport const p = engine;\n",
  'src/main/sessions/harness.ts': "import { kit } from '../../../test-support/main/kit';\nexport const h = kit;\n",
  'src/main/app/shell.ts': "import { server } from '../web/server';\nexport const s = server;\n",
  'src/main/web/other-shell.ts': "import { window } from '../electron/window';\nexport const w = window;\n",
  'src/main/cli/run.ts': "import { services } from '../app/services';\nimport { server } from '../web/server';\nexport const r = [services, server];\n",
  'src/main/agent/electron.ts': "export { app } from 'electron';\n",
  'src/shared/reaches-out.ts': "import { readFileSync } from 'node:fs';\nimport { ChatService } from '../main/agent/chat-service';\nexport const x = [readFileSync, ChatService];\n",
  'src/renderer/src/Bad.tsx': "const { ipcRenderer } = require('electron');\nexport const load = () => import('../../main/app/services');\nexport const r = ipcRenderer;\n",
  'src/preload/bad.ts': "import { z } from 'zod';\nimport { services } from '../main/app/services';\nexport const p = [z, services];\n",
};

const EXPECTED = [
  'only-the-electron-shell-imports-electron: src/main/agent/electron.ts -> electron',
  'app-below-the-shells: src/main/app/shell.ts -> src/main/web/server.ts',
  'no-circular: src/main/tools/loop-a.ts -> src/main/tools/loop-b.ts',
  'plan-below-the-loop: src/main/plan/upward.ts -> src/main/agent/chat-service.ts',
  'recovery-below-the-loop: src/main/recovery/peer.ts -> src/main/plan/engine.ts',
  'production-never-imports-tests: src/main/sessions/harness.ts -> test-support/main/kit.ts',
  'web-never-imports-electron: src/main/web/other-shell.ts -> src/main/electron/window.ts',
  'cli-imports-no-other-shell: src/main/cli/run.ts -> src/main/web/server.ts',
  'preload-imports-only-shared: src/preload/bad.ts -> src/main/app/services.ts',
  'preload-imports-only-shared: src/preload/bad.ts -> zod',
  'only-the-electron-shell-imports-electron: src/renderer/src/Bad.tsx -> electron',
  'renderer-never-imports-main: src/renderer/src/Bad.tsx -> src/main/app/services.ts',
  'shared-imports-only-shared: src/shared/reaches-out.ts -> fs',
  'shared-imports-only-shared: src/shared/reaches-out.ts -> src/main/agent/chat-service.ts',
];

let root: string;
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'waypoint-architecture-'));
  for (const [path, text] of Object.entries(PLANTED)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  writeFileSync(join(root, 'tsconfig.json'), JSON.stringify({ compilerOptions: { module: 'ESNext', moduleResolution: 'Bundler', jsx: 'react-jsx' } }));
  // Packages lie under the tree's own node_modules/, as in the repository: 'electron' is a small
  // stand-in there (the rules must see it resolved into node_modules/, where the real one is),
  // the others link to the repository's.
  mkdirSync(join(root, 'node_modules/electron'), { recursive: true });
  writeFileSync(join(root, 'node_modules/electron/package.json'), JSON.stringify({ name: 'electron', main: 'index.js' }));
  writeFileSync(join(root, 'node_modules/electron/index.js'), 'module.exports = {};\n');
  for (const name of ['zod', 'react', 'vitest']) symlinkSync(join(repo, 'node_modules', name), join(root, 'node_modules', name), 'dir');
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('architecture rules', () => {
  it('report exactly the planted violations, each under its rule, and fail the run', () => {
    // As npm run lint runs it: one line per violation, and the exit code counts them.
    const run = spawnSync(process.execPath, [DEPCRUISE, 'src', 'test-support', '--config', join(repo, '.dependency-cruiser.cjs'), '--output-type', 'err'], {
      cwd: root,
      encoding: 'utf8',
    });
    const found = [...run.stdout.matchAll(/error ([\w-]+): (\S+) →\s+(\S+)/g)].map(
      ([, rule, from, to]) => `${rule}: ${from} -> ${to!.replace(/^.*node_modules\/(electron|zod)\/.*$/, '$1')}`,
    );
    expect(found.sort()).toEqual([...EXPECTED].sort());
    expect(run.status, run.stderr).toBe(EXPECTED.length);
  });
});

describe('lint', () => {
  it("the repository's ESLint configuration fails a hook called conditionally and an `any`", async () => {
    // Type-aware rules need files on disk in the project; these two need none.
    const eslint = new ESLint({
      cwd: repo,
      overrideConfig: {
        languageOptions: { parserOptions: { projectService: false } },
        rules: { '@typescript-eslint/no-floating-promises': 'off', '@typescript-eslint/no-misused-promises': 'off' },
      },
    });
    const code = [
      "import { useState } from 'react';",
      'export function Probe({ on }: { on: boolean }) {',
      '  if (on) useState(0);',
      '  const value: any = on;',
      '  return value;',
      '}',
      '',
    ].join('\n');
    const [result] = await eslint.lintText(code, { filePath: join(repo, 'src/renderer/src/components/Probe.tsx') });
    expect(result!.messages.map((m) => m.ruleId).sort()).toEqual(['@typescript-eslint/no-explicit-any', 'react-hooks/rules-of-hooks']);
    expect(result!.errorCount).toBe(2);
  });
});
