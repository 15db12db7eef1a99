#!/usr/bin/env node
// Runs Electronegativity through its documented programmatic API and writes its CSV report
// ourselves, in one synchronous write, before exiting.
// Why not `electronegativity -o report.csv`: its CSV writer starts two fs.writeFile calls at once
// (the header with flag "w", the rows with flag "a") and never waits for either, so when the
// header's open runs second it truncates the rows away and the report says "no findings". A
// security gate must not pass because of a thread-pool race.
// Usage: node scripts/security/electronegativity-scan.mjs INPUT OUTPUT.csv [ELECTRON_VERSION]
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';

const require = createRequire(import.meta.url);
const run = require('@doyensec/electronegativity');

const [input, output, electronVersion] = process.argv.slice(2);
if (!input || !output) {
  console.error('usage: electronegativity-scan.mjs INPUT OUTPUT.csv [ELECTRON_VERSION]');
  process.exit(2);
}

/** The same columns and quoting Electronegativity's own CSV uses (parsed by electronegativity-report.mjs). */
const quote = (value) => (value == null ? 'N/A' : `"${String(value).replace(/"/g, '""')}"`);
const CSV_HEADER = 'issue, severity, confidence, filename, location, sample, description, url';

try {
  const result = await run({
    input: resolve(input),
    customScan: [],
    excludeFromScan: [],
    isRelative: false,
    isVerbose: true,
    ...(electronVersion ? { electronVersionOverride: electronVersion } : {}),
  });
  const rows = result.issues.map((issue) =>
    [
      issue.id,
      quote(issue.severity.name),
      quote(issue.confidence.name),
      quote(issue.file),
      quote(`${issue.location.line}:${issue.location.column}`),
      quote(issue.sample),
      quote(issue.description),
      `https://github.com/doyensec/electronegativity/wiki/${issue.id}`,
    ].join(','),
  );
  for (const error of result.errors) if (!error.tolerable) console.error(`electronegativity: could not parse ${error.file}: ${error.message}`);
  writeFileSync(output, `${[CSV_HEADER, ...rows].join('\n')}\n`);
} catch (error) {
  console.error(`electronegativity failed: ${error instanceof Error ? error.stack : String(error)}`);
  process.exit(1);
}
