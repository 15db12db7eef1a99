#!/usr/bin/env node
// The one test command: typecheck, lint (with the architecture rules), build, Vitest, then
// Playwright against the built app.
// Prints one closing line "N passed, N failed" summed over both runners (CI reads only that).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { findChromium } from './chromium-path.mjs';

const outDir = '.test-output';
rmSync(outDir, { recursive: true, force: true });
mkdirSync(outDir, { recursive: true });

let passed = 0;
let failed = 0;
const problems = [];

function run(label, cmd, args, env = {}) {
  console.log(`\n=== ${label}: ${cmd} ${args.join(' ')}`);
  const started = Date.now();
  const result = spawnSync(cmd, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  console.log(`=== ${label} finished in ${((Date.now() - started) / 1000).toFixed(1)} s (exit ${result.status})`);
  return result.status === 0;
}

function readJson(path) {
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    return null;
  }
}

// 1. Types: a type error is a failure even if every test passes.
if (run('typecheck', 'npx', ['tsc', '--noEmit', '-p', 'tsconfig.json'])) passed += 1;
else {
  failed += 1;
  problems.push('typecheck failed');
}

// 1b. Lint and architecture rules (eslint, dependency-cruiser): one check, like typecheck; zero warnings.
if (run('lint', 'npm', ['run', '--silent', 'lint'])) passed += 1;
else {
  failed += 1;
  problems.push('lint failed (npm run lint: ESLint, or an architecture rule in .dependency-cruiser.cjs)');
}

// 2. Build: e2e tests run against the built renderer and web shell.
const built = run('build', 'node', ['scripts/build-if-stale.mjs']);
if (!built) {
  failed += 1;
  problems.push('build failed');
}

// 2b. Electronegativity over src/ and the built out/: any HIGH/MEDIUM finding not justified in
// security/electronegativity-allowlist.json fails the run (it counts as one check, like typecheck).
if (run('electronegativity', 'node', ['scripts/security/electronegativity.mjs', ...(built ? [] : ['--no-out'])])) passed += 1;
else {
  failed += 1;
  problems.push('electronegativity: unjustified HIGH/MEDIUM finding (see security/electronegativity-allowlist.json)');
}

// 3. Vitest: unit, property and integration tests.
const vitestJson = `${outDir}/vitest.json`;
const vitestOk = run('vitest', 'npx', ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${vitestJson}`]);
const vitest = readJson(vitestJson);
if (vitest) {
  passed += vitest.numPassedTests ?? 0;
  failed += vitest.numFailedTests ?? 0;
  if (!vitestOk && (vitest.numFailedTests ?? 0) === 0) {
    failed += 1;
    problems.push('vitest exited non-zero without a failed test (a suite failed to load?)');
  }
} else {
  failed += 1;
  problems.push('vitest produced no report');
}

// 4. Playwright e2e in Debian's Chromium.
if (built) {
  const chromium = findChromium();
  if (!chromium) {
    failed += 1;
    problems.push('no Chromium found: install Debian\'s chromium (apt-get install -y --no-install-recommends chromium) or set WAYPOINT_CHROMIUM');
  } else {
    const pwJson = `${outDir}/playwright.json`;
    const pwOk = run('playwright', 'npx', ['playwright', 'test', '--reporter=list,json'], {
      PLAYWRIGHT_JSON_OUTPUT_NAME: pwJson,
      WAYPOINT_CHROMIUM: chromium,
    });
    const pw = readJson(pwJson);
    if (pw?.stats) {
      passed += (pw.stats.expected ?? 0) + (pw.stats.flaky ?? 0);
      failed += pw.stats.unexpected ?? 0;
      if (pw.stats.skipped) console.log(`\nPlaywright skipped ${pw.stats.skipped} test(s); each prints its reason above (e.g. no Electron binary).`);
      if (!pwOk && (pw.stats.unexpected ?? 0) === 0) {
        failed += 1;
        problems.push('playwright exited non-zero without a failed test');
      }
    } else {
      failed += 1;
      problems.push('playwright produced no report');
    }
  }
}

if (problems.length) console.log(`\nProblems:\n- ${problems.join('\n- ')}`);
console.log(`\n${passed} passed, ${failed} failed`);
process.exit(failed === 0 && existsSync(vitestJson) ? 0 : 1);
