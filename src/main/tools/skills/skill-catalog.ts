import type { Dirent } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { DiskFiles, type FileSource } from '../../common/file-source';
import { parseSkillFile } from './skill-front-matter';

/** A usable skill: its SKILL.md's front matter and body, and its real folder (where read_skill_file is confined). */
export interface Skill {
  name: string;
  description: string;
  body: string;
  /** Real path of the skill's folder. */
  dir: string;
  /** Where it was found, for Settings: `.claude/skills/pdf-forms`, or `skills/pdf-forms` in the data folder. */
  where: string;
}

/** A folder with a SKILL.md that cannot be used, and why in words. */
export interface BrokenSkill {
  where: string;
  problem: string;
}

export interface SkillsFound {
  skills: Skill[];
  broken: BrokenSkill[];
}

const SKILL_FILE = 'SKILL.md';

/**
 * Skills are folders holding a SKILL.md under the workspace's `.claude/skills/` and
 * `.agents/skills/` and the data folder's `skills/` (docs/architecture.md "Instructions and
 * skills"). Found again for every request (a readdir per place) with each SKILL.md behind a stat
 * cache, so a skill added or edited applies from the next message. A name found twice is used
 * once: the workspace's over the data folder's.
 */
export class SkillCatalog {
  private readonly disk = new DiskFiles();

  constructor(private readonly dataDir: string) {}

  /**
   * `files` is where the workspace is read: the disk, or the commit a worktree is being checked
   * out from (common/git-tree-files.ts); the data folder's skills are always on disk.
   */
  async find(workspace: string | null, files: FileSource = this.disk): Promise<SkillsFound> {
    const places: Array<{ dir: string; files: FileSource; where: (folder: string) => string }> = [];
    if (workspace) {
      places.push({ dir: path.join(workspace, '.claude', 'skills'), files, where: (f) => `.claude/skills/${f}` });
      places.push({ dir: path.join(workspace, '.agents', 'skills'), files, where: (f) => `.agents/skills/${f}` });
    }
    places.push({ dir: path.join(this.dataDir, 'skills'), files: this.disk, where: (f) => `skills/${f} (data folder)` });
    const found: SkillsFound = { skills: [], broken: [] };
    for (const place of places) {
      for (const entry of await folders(place.files, place.dir)) await this.add(place.files, found, path.join(place.dir, entry), place.where(entry));
    }
    return found;
  }

  private async add(files: FileSource, found: SkillsFound, folder: string, where: string): Promise<void> {
    const dir = await files.realpath(folder);
    if (!dir || (await files.kind(dir)) !== 'dir') return;
    const text = await files.readText(path.join(dir, SKILL_FILE));
    if (text === null) return; // a folder without a SKILL.md is not a skill
    const parsed = parseSkillFile(text);
    if (!parsed.ok) {
      found.broken.push({ where, problem: parsed.problem });
      return;
    }
    const first = found.skills.find((s) => s.name === parsed.name);
    if (first) {
      found.broken.push({ where, problem: `Another skill is already named ${parsed.name} (${first.where}); this one is not used.` });
      return;
    }
    found.skills.push({ name: parsed.name, description: parsed.description, body: parsed.body, dir, where });
  }
}

/** The folder names in `dir`, sorted (the prompt's skill list stays byte-stable); none when it does not exist. */
async function folders(files: FileSource, dir: string): Promise<string[]> {
  return (await files.entries(dir))
    .filter((e) => e.dir || e.link)
    .map((e) => e.name)
    .filter((name) => !name.startsWith('.'))
    .sort();
}

const MAX_LISTED = 200;
const MAX_DEPTH = 4;

/** The skill's other files, relative to its folder (symlinks and hidden files left out), at most MAX_LISTED. */
export async function skillFiles(dir: string): Promise<{ files: string[]; more: boolean }> {
  const files: string[] = [];
  let more = false;
  const walk = async (rel: string, depth: number): Promise<void> => {
    let entries: Dirent[];
    try {
      entries = await fs.readdir(path.join(dir, rel), { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
      if (entry.name.startsWith('.')) continue;
      const child = rel ? `${rel}/${entry.name}` : entry.name;
      if (entry.isFile() && child !== SKILL_FILE) {
        if (files.length >= MAX_LISTED) {
          more = true;
          return;
        }
        files.push(child);
      } else if (entry.isDirectory() && depth < MAX_DEPTH) {
        await walk(child, depth + 1);
      }
    }
  };
  await walk('', 0);
  return { files, more };
}
