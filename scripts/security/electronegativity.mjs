#!/usr/bin/env node
// CI gate: runs Electronegativity over the sources (and the built app in out/ when present) and
// exits 1 listing every HIGH or MEDIUM finding that security/electronegativity-allowlist.json
// does not justify. Electronegativity always exits 0 by itself, so its CSV is what we judge.
// Usage: node scripts/security/electronegativity.mjs [--no-out]
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describeFinding, evaluate, parseAllowList, parseFindings } from './electronegativity-report.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
// Judge the app against the Electron it ships with (no network lookup of releases needed).
const electronVersion = String(pkg.devDependencies?.electron ?? '').replace(/^[^\d]*/, '');
// Our wrapper of its programmatic API: its own `-o` CSV writer can lose every row (see the wrapper).
const bin = join(root, 'scripts', 'security', 'electronegativity-scan.mjs');

const targets = ['src'];
if (!process.argv.includes('--no-out') && existsSync(join(root, 'out', 'main', 'index.js'))) targets.push('out');

function scan(target, dir) {
  const csv = join(dir, `${target}.csv`);
  const args = [bin, join(root, target), csv, ...(electronVersion ? [electronVersion] : [])];
  const run = spawnSync(process.execPath, args, { cwd: root, encoding: 'utf8' });
  if (!existsSync(csv)) {
    throw new Error(`Electronegativity produced no report for ${target}/ (exit ${run.status}):\n${run.stderr || run.stdout}`);
  }
  return parseFindings(readFileSync(csv, 'utf8'), root);
}

function main() {
  const entries = parseAllowList(JSON.parse(readFileSync(join(root, 'security', 'electronegativity-allowlist.json'), 'utf8')), root);
  const dir = mkdtempSync(join(tmpdir(), 'waypoint-electronegativity-'));
  let findings = [];
  try {
    for (const target of targets) findings = findings.concat(scan(target, dir));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const verdict = evaluate(findings, entries);
  console.log(`Electronegativity ${electronVersion || '(detected Electron)'} over ${targets.join(', ')}: ${findings.length} finding(s).`);
  for (const f of verdict.justified) console.log(`  justified  ${describeFinding(f).split('\n')[0]}`);
  for (const f of verdict.notes) console.log(`  note       ${describeFinding(f).split('\n')[0]}`);
  for (const e of verdict.unused) console.log(`  (allow-list entry no longer needed: ${e.check} in ${e.file})`);
  if (!verdict.ok) {
    console.error(`\n${verdict.blocking.length} HIGH/MEDIUM finding(s) not justified in security/electronegativity-allowlist.json:`);
    for (const f of verdict.blocking) console.error(`  ✗ ${describeFinding(f)}`);
    console.error('\nFix the code, or add a reviewed entry (check, file, justification, provenBy) to the allow-list.');
    process.exit(1);
  }
  console.log('Electronegativity gate passed: no unjustified HIGH or MEDIUM finding.');
}

try {
  main();
} catch (error) {
  console.error(`Electronegativity gate failed to run: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
