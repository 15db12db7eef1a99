import fs from 'node:fs/promises';
import path from 'node:path';
import type { ErrorClass } from '../../../shared/plan';
import { isInside } from '../workspace/confine';

const MAX_PATH = 1024;
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;
const HOW = 'Give a path relative to the skill\'s folder, as load_skill lists it, e.g. scripts/fill.py.';

/**
 * Why a path given for a skill's file is refused before the disk is asked, or null. Lexical:
 * no absolute path, drive, `~`, backslash or `..` segment, so the path alone cannot leave
 * the folder; `resolveSkillFile` then checks where symlinks lead.
 */
export function skillPathProblem(given: string): string | null {
  return lexicalProblem(given)?.problem ?? null;
}

interface Refusal {
  kind: ErrorClass;
  problem: string;
}

function lexicalProblem(given: string): Refusal | null {
  const bad = (problem: string): Refusal => ({ kind: 'invalid_parameter', problem });
  const out = (problem: string): Refusal => ({ kind: 'permission', problem });
  if (!given.trim()) return bad(`The path is empty. ${HOW}`);
  if (given.length > MAX_PATH) return bad(`The path is longer than ${MAX_PATH} characters. ${HOW}`);
  if (CONTROL.test(given)) return bad(`The path contains control characters. ${HOW}`);
  if (given.startsWith('/') || /^[a-zA-Z]:/.test(given) || given.startsWith('~')) return out(`"${given}" is not relative to the skill's folder. ${HOW}`);
  if (given.includes('\\')) return bad(`"${given}" contains a backslash; use forward slashes. ${HOW}`);
  if (given.split('/').includes('..')) return out(`"${given}" leads out of the skill's folder (".." is not allowed). ${HOW}`);
  return null;
}

export type SkillFilePath = { ok: true; abs: string; rel: string } | ({ ok: false } & Refusal);

/** A file of the skill whose real folder is `dir`: the path checked, then followed, and it must still be inside. */
export async function resolveSkillFile(dir: string, given: string): Promise<SkillFilePath> {
  const refused = lexicalProblem(given);
  if (refused) return { ok: false, ...refused };
  const lexical = path.resolve(dir, given);
  let real: string;
  try {
    real = await fs.realpath(lexical);
  } catch {
    return { ok: false, kind: 'not_found', problem: `The skill has no file "${given}". ${HOW}` };
  }
  if (!isInside(dir, real)) return { ok: false, kind: 'permission', problem: `"${given}" leads out of the skill's folder (a symlink points elsewhere), so it is not read.` };
  try {
    if (!(await fs.stat(real)).isFile()) return { ok: false, kind: 'invalid_parameter', problem: `"${given}" is a folder, not a file. ${HOW}` };
  } catch {
    return { ok: false, kind: 'not_found', problem: `The skill has no file "${given}". ${HOW}` };
  }
  return { ok: true, abs: real, rel: path.relative(dir, lexical).split(path.sep).join('/') };
}
