// Pure half of the Electronegativity gate: read its CSV, read the reviewed allow-list, decide.
// Electronegativity itself always exits 0, so this verdict is what fails the build.
import { existsSync } from 'node:fs';
import { isAbsolute, join, relative, sep } from 'node:path';
import { z } from 'zod';

/** Severities that fail the build unless an allow-list entry justifies the finding. */
export const BLOCKING_SEVERITIES = ['HIGH', 'MEDIUM'];

/** RFC 4180 CSV: quoted fields may hold commas, newlines and "" for a quote. */
export function parseCsv(text) {
  const rows = [];
  let row = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i += 1) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i += 1;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      row.push(field);
      field = '';
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i += 1;
      row.push(field);
      if (row.some((f) => f.trim() !== '')) rows.push(row);
      row = [];
      field = '';
    } else field += ch;
  }
  row.push(field);
  if (row.some((f) => f.trim() !== '')) rows.push(row);
  return rows;
}

const COLUMNS = ['issue', 'severity', 'confidence', 'filename', 'location', 'sample', 'description'];

/** Findings from Electronegativity's CSV, with paths relative to `root` and `/` separators. */
export function parseFindings(csvText, root) {
  const [header, ...rows] = parseCsv(csvText);
  if (!header) throw new Error('Electronegativity wrote an empty report (no header line).');
  const names = header.map((h) => h.trim().toLowerCase());
  const index = Object.fromEntries(COLUMNS.map((c) => [c, names.indexOf(c)]));
  const missing = COLUMNS.filter((c) => index[c] < 0);
  if (missing.length) throw new Error(`Electronegativity's CSV has no column(s) ${missing.join(', ')}; header was: ${header.join(',')}`);
  return rows.map((cells) => {
    const get = (c) => (cells[index[c]] ?? '').trim();
    const file = get('filename');
    const rel = isAbsolute(file) ? relative(root, file) : file;
    return {
      check: get('issue'),
      severity: get('severity').toUpperCase(),
      confidence: get('confidence').toUpperCase(),
      file: rel.split(sep).join('/'),
      location: get('location'),
      sample: get('sample'),
      description: get('description'),
    };
  });
}

const AllowEntry = z
  .object({
    check: z.string().regex(/^[A-Z0-9_]+$/, 'a check id such as CONTEXT_ISOLATION_JS_CHECK'),
    file: z.string().min(1).refine((f) => !f.startsWith('/') && !f.includes('\\'), 'a repository-relative path with /'),
    justification: z.string().trim().min(40, 'say specifically why this is safe (at least 40 characters)'),
    provenBy: z.array(z.string().min(1)).min(1, 'name at least one test or source file that proves it'),
  })
  .strict();

const AllowList = z.object({ $comment: z.string().optional(), entries: z.array(AllowEntry) }).strict();

/**
 * Validates the allow-list and that every file it points at (the finding's file, the proof)
 * exists, so an entry cannot silently outlive the code it justified.
 */
export function parseAllowList(json, root) {
  const parsed = AllowList.safeParse(json);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`);
    throw new Error(`security/electronegativity-allowlist.json is invalid:\n  ${issues.join('\n  ')}`);
  }
  const problems = [];
  for (const entry of parsed.data.entries) {
    for (const proof of entry.provenBy) {
      if (!existsSync(join(root, proof))) problems.push(`${entry.check} in ${entry.file}: provenBy "${proof}" does not exist`);
    }
  }
  if (problems.length) throw new Error(`security/electronegativity-allowlist.json points at missing files:\n  ${problems.join('\n  ')}`);
  return parsed.data.entries;
}

/** The verdict: blocking findings (not justified), justified ones, notes, and stale entries. */
export function evaluate(findings, entries) {
  const matches = (entry, f) => entry.check === f.check && entry.file === f.file;
  const blocking = [];
  const justified = [];
  const notes = [];
  for (const f of findings) {
    if (!BLOCKING_SEVERITIES.includes(f.severity)) notes.push(f);
    else if (entries.some((e) => matches(e, f))) justified.push(f);
    else blocking.push(f);
  }
  const unused = entries.filter((e) => !findings.some((f) => matches(e, f)));
  return { blocking, justified, notes, unused, ok: blocking.length === 0 };
}

export function describeFinding(f) {
  const sample = f.sample && f.sample !== 'N/A' ? `\n      ${f.sample.slice(0, 160)}` : '';
  return `${f.severity} ${f.check} at ${f.file}:${f.location} (${f.confidence}) — ${f.description}${sample}`;
}
