import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { evaluate, parseAllowList, parseCsv, parseFindings, type Finding } from './security/electronegativity-report.mjs';

const root = fileURLToPath(new URL('../', import.meta.url));

const finding = (over: Partial<Finding>): Finding => ({
  check: 'SANDBOX_JS_CHECK',
  severity: 'MEDIUM',
  confidence: 'FIRM',
  file: 'src/main/electron/main.ts',
  location: '1:1',
  sample: '',
  description: 'Use sandbox',
  ...over,
});
const entry = (over: Record<string, unknown> = {}) => ({
  check: 'SANDBOX_JS_CHECK',
  file: 'src/main/electron/main.ts',
  justification: 'mainWindowOptions() sets sandbox: true, asserted by the checklist test.',
  provenBy: ['src/main/electron/security-checklist.test.ts'],
  ...over,
});

describe('Electronegativity report', () => {
  it('parses its CSV: quoted commas, doubled quotes, CRLF, absolute paths made relative', () => {
    expect(parseCsv('a,"b, c","say ""hi"""\r\nd,,e\n')).toEqual([
      ['a', 'b, c', 'say "hi"'],
      ['d', '', 'e'],
    ]);
    const csv = [
      'issue, severity, confidence, filename, location, sample, description, url',
      `OPEN_EXTERNAL_JS_CHECK,"MEDIUM","TENTATIVE","${join(root, 'src/main/electron/harden.ts')}","12:23","shell.openExternal(""x"", y)","Review the use of openExternal",https://example`,
    ].join('\n');
    expect(parseFindings(csv, root)).toEqual([
      {
        check: 'OPEN_EXTERNAL_JS_CHECK',
        severity: 'MEDIUM',
        confidence: 'TENTATIVE',
        file: 'src/main/electron/harden.ts',
        location: '12:23',
        sample: 'shell.openExternal("x", y)',
        description: 'Review the use of openExternal',
      },
    ]);
    expect(() => parseFindings('', root)).toThrow(/empty report/);
    expect(() => parseFindings('issue,severity\nX,HIGH', root)).toThrow(/no column/);
  });

  it('fails on HIGH and MEDIUM findings the allow-list does not name (check and file), passes LOW ones as notes', () => {
    const entries = parseAllowList({ entries: [entry()] }, root);
    const verdict = evaluate(
      [
        finding({}),
        finding({ file: 'src/main/electron/other.ts' }),
        finding({ check: 'NODE_INTEGRATION_JS_CHECK', severity: 'HIGH' }),
        finding({ check: 'CSP_GLOBAL_CHECK', severity: 'LOW' }),
      ],
      entries,
    );
    expect(verdict.ok).toBe(false);
    expect(verdict.justified.map((f) => f.file)).toEqual(['src/main/electron/main.ts']);
    expect(verdict.blocking.map((f) => `${f.check} ${f.file}`)).toEqual([
      'SANDBOX_JS_CHECK src/main/electron/other.ts',
      'NODE_INTEGRATION_JS_CHECK src/main/electron/main.ts',
    ]);
    expect(verdict.notes.map((f) => f.check)).toEqual(['CSP_GLOBAL_CHECK']);
    expect(evaluate([finding({})], entries)).toMatchObject({ ok: true, unused: [] });
    expect(evaluate([], entries).unused).toHaveLength(1);
  });

  it('refuses an allow-list entry without a real justification or proof', () => {
    expect(() => parseAllowList({ entries: [entry({ justification: 'safe' })] }, root)).toThrow(/at least 40 characters/);
    expect(() => parseAllowList({ entries: [entry({ provenBy: [] })] }, root)).toThrow(/provenBy/);
    expect(() => parseAllowList({ entries: [entry({ provenBy: ['src/nope.test.ts'] })] }, root)).toThrow(/does not exist/);
    expect(() => parseAllowList({ entries: [entry({ file: '/abs/main.ts' })] }, root)).toThrow(/repository-relative/);
    expect(() => parseAllowList({ entries: [entry({ severity: 'LOW' })] }, root)).toThrow();
    expect(() => parseAllowList({ items: [] }, root)).toThrow();
  });

  it('the reviewed allow-list of this repository is valid', () => {
    const entries = parseAllowList(JSON.parse(readFileSync(join(root, 'security/electronegativity-allowlist.json'), 'utf8')), root);
    expect(entries.length).toBeGreaterThan(0);
  });

  it('reads real Electronegativity output: an insecure window is a blocking HIGH finding', () => {
    const dir = mkdtempSync(join(tmpdir(), 'waypoint-en-'));
    try {
      writeFileSync(
        join(dir, 'bad.js'),
        "const { BrowserWindow } = require('electron');\nnew BrowserWindow({ webPreferences: { nodeIntegration: true, contextIsolation: false, sandbox: false } });\n",
      );
      // The gate's own runner (its CSV writer, unlike Electronegativity's `-o`, cannot lose rows).
      const csv = join(dir, 'report.csv');
      const run = spawnSync(process.execPath, [join(root, 'scripts/security/electronegativity-scan.mjs'), join(dir, 'bad.js'), csv, '45.4.1'], { encoding: 'utf8' });
      expect(run.status, run.stderr).toBe(0);
      const findings = parseFindings(readFileSync(csv, 'utf8'), dir);
      const verdict = evaluate(findings, []);
      expect(verdict.ok).toBe(false);
      expect(verdict.blocking).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ check: 'SANDBOX_JS_CHECK', severity: 'MEDIUM', file: 'bad.js' }),
          expect.objectContaining({ check: 'LIMIT_NAVIGATION_GLOBAL_CHECK', severity: 'HIGH' }),
          expect.objectContaining({ check: 'CONTEXT_ISOLATION_JS_CHECK', severity: 'HIGH', file: 'bad.js' }),
        ]),
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
