#!/usr/bin/env node
// Points every citation of the old design file at docs/contract.md, which holds the same product
// contract with the same section numbers (§2–§12), so a reader of the code never needs a file
// outside the repository. The lead runs it once, after the issue-22 branches are merged:
//
//   node scripts/cite-contract.mjs            # dry run: counts what would change
//   node scripts/cite-contract.mjs --write    # rewrites the files
//
// then un-skips the check in scripts/contract-citations.test.ts.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The folders whose files may cite the contract (the same list the citation test scans). */
export const CITING_FOLDERS = ['src', 'test-support', 'e2e', 'bench', 'scripts'];
/** Built from parts so this file does not cite the old name itself. */
export const OLD_NAME = ['design', 'md'].join('.');
export const NEW_PATH = 'docs/contract.md';

// The bare name, or the name after "shared/" or "../" steps: all the one file outside the repository.
const CITATION = new RegExp(`(?<![\\w./-])(?:\\.\\./)*(?:shared/)?${OLD_NAME.replace('.', '\\.')}\\b`, 'g');

/** The text with every citation repointed, and how many there were. */
export function recite(text) {
  let count = 0;
  const next = text.replace(CITATION, () => {
    count += 1;
    return NEW_PATH;
  });
  return { text: next, count };
}

/** Tracked and new (not ignored) files under the citing folders of a git work tree. */
export function citingFiles(root) {
  const out = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z', '--', ...CITING_FOLDERS], {
    cwd: root,
    encoding: 'utf8',
  });
  return [...new Set(out.split('\0').filter(Boolean))];
}

/** Rewrites (or, without write, only counts) the citations under root. */
export function citeContract(root, { write = false } = {}) {
  const changed = [];
  let citations = 0;
  for (const file of citingFiles(root)) {
    let text;
    try {
      text = readFileSync(join(root, file), 'utf8');
    } catch {
      continue; // listed but gone (deleted in the work tree): nothing to cite from
    }
    const result = recite(text);
    if (result.count === 0) continue;
    changed.push(file);
    citations += result.count;
    if (write) writeFileSync(join(root, file), result.text);
  }
  return { files: changed, citations };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const write = process.argv.includes('--write');
  const root = fileURLToPath(new URL('../', import.meta.url));
  const { files, citations } = citeContract(root, { write });
  const verb = write ? 'Repointed' : 'Would repoint';
  console.log(`${verb} ${citations} citation(s) in ${files.length} file(s) to ${NEW_PATH}.`);
  if (!write && files.length) console.log('Run again with --write to change them.');
}
