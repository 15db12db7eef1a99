import fs from 'node:fs/promises';
import path from 'node:path';
import { confine } from '../../../tools/workspace/confine';
import { DiskFiles, type FileSource } from '../../../common/file-source';
import { INSTRUCTION_FILE_NAMES, instructionFolders } from './instruction-folders';

/** All instructions together may take this many characters of the system prompt; the rest is cut. */
export const MAX_INSTRUCTION_CHARS = 40_000;
/** How deep `@path` imports may nest: deep enough for real use, short of runaway chains. */
const MAX_IMPORT_DEPTH = 5;
export const EVERY_CHAT_NAME = 'Instructions for every chat (Settings)';

/** One file (or the Settings text) that went into the system prompt. */
export interface InstructionSource {
  /** The file's path relative to the workspace (`AGENTS.md`, `../AGENTS.md`, `docs/style.md`), or EVERY_CHAT_NAME. */
  name: string;
  /** Characters of it in the prompt. */
  chars: number;
  /** The file that imported it with an `@path` line, when it was imported. */
  importedBy?: string;
  /** Part or all of it fell beyond the 40,000-character limit. */
  cut?: boolean;
}

export interface ProjectInstructionsView {
  /** The system prompt's section, or '' when there are no instructions. */
  prompt: string;
  sources: InstructionSource[];
  /** Imports not followed and the cut, in words (they are in the prompt too, where they happened). */
  notes: string[];
}

interface Section {
  name: string;
  body: string;
}

/**
 * Project instructions (docs/architecture.md "Instructions and skills"): the workspace's
 * AGENTS.md and CLAUDE.md and those of its parents up to the repository root, with `@path`
 * imports expanded, after the user's "Instructions for every chat". Read per request through a
 * stat cache, so an edit applies from the next message and an unchanged file costs one stat.
 */
export class ProjectInstructions {
  private readonly disk = new DiskFiles();

  /** `files`: the disk, or the commit a worktree is being checked out from (common/git-tree-files.ts). */
  async read(workspace: string | null, everyChat: string, files: FileSource = this.disk): Promise<ProjectInstructionsView> {
    const sections: Section[] = [];
    const sources: InstructionSource[] = [];
    const notes: string[] = [];
    if (everyChat.trim()) {
      sections.push({ name: EVERY_CHAT_NAME, body: everyChat.trim() });
      sources.push({ name: EVERY_CHAT_NAME, chars: everyChat.trim().length });
    }
    const root = workspace ? await realFolder(workspace, files) : null;
    if (root) {
      for (const folder of await instructionFolders(root, files)) {
        for (const fileName of INSTRUCTION_FILE_NAMES) {
          const file = path.join(folder, fileName);
          const text = await files.readText(file);
          if (text === null) continue;
          const name = displayName(root, file);
          const source: InstructionSource = { name, chars: 0 };
          sources.push(source);
          const body = await this.expand(files, root, file, text, [file], sources, notes);
          source.chars = text.length;
          sections.push({ name, body: body.trim() });
        }
      }
    }
    return { ...compose(sections, sources, notes), sources, notes };
  }

  /** The text with each `@path` line (outside code fences) replaced by that file's expanded text, or a note. */
  private async expand(files: FileSource, root: string, file: string, text: string, stack: string[], sources: InstructionSource[], notes: string[]): Promise<string> {
    const lines = text.split(/\r?\n/);
    let fenced = false;
    const out: string[] = [];
    for (const line of lines) {
      if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
      const target = fenced ? null : /^\s*@(\S+)\s*$/.exec(line)?.[1];
      if (!target) {
        out.push(line);
        continue;
      }
      const from = displayName(root, file);
      const resolved = files === this.disk ? await resolveImport(root, file, target) : await resolveTreeImport(files, root, file, target);
      if (!resolved.ok) {
        const note = `"@${target}" in ${from} was not imported: ${resolved.why}.`;
        notes.push(note);
        out.push(`[Waypoint: ${note}]`);
        continue;
      }
      if (stack.includes(resolved.abs)) {
        const note = `"@${target}" in ${from} was not imported: it leads back to a file already being imported (an import loop).`;
        notes.push(note);
        out.push(`[Waypoint: ${note}]`);
        continue;
      }
      if (stack.length > MAX_IMPORT_DEPTH) {
        const note = `"@${target}" in ${from} was not imported: imports nest at most ${MAX_IMPORT_DEPTH} deep.`;
        notes.push(note);
        out.push(`[Waypoint: ${note}]`);
        continue;
      }
      const imported = await files.readText(resolved.abs);
      if (imported === null) {
        const note = `"@${target}" in ${from} was not imported: it is not a readable file.`;
        notes.push(note);
        out.push(`[Waypoint: ${note}]`);
        continue;
      }
      const name = displayName(root, resolved.abs);
      sources.push({ name, chars: imported.length, importedBy: from });
      out.push((await this.expand(files, root, resolved.abs, imported, [...stack, resolved.abs], sources, notes)).trimEnd());
    }
    return out.join('\n');
  }
}

async function realFolder(folder: string, files: FileSource): Promise<string | null> {
  const real = await files.realpath(folder);
  return real && (await files.kind(real)) === 'dir' ? real : null;
}

/** A file's name as the prompt and the "Instructions" list show it: relative to the workspace, forward slashes. */
function displayName(root: string, file: string): string {
  return path.relative(root, file).split(path.sep).join('/');
}

/**
 * Where an import points, confined to the workspace like every workspace tool (confine.ts:
 * no `..` out of it, no absolute path, no symlink leading outside), relative to the importing
 * file's folder.
 */
async function resolveImport(root: string, importer: string, target: string): Promise<{ ok: true; abs: string } | { ok: false; why: string }> {
  if (path.isAbsolute(target) || target.startsWith('~')) return { ok: false, why: 'only paths relative to the file are followed, inside the workspace' };
  const lexical = path.resolve(path.dirname(importer), target);
  const rel = path.relative(root, lexical);
  if (rel === '' || rel.startsWith('..') || path.isAbsolute(rel)) return { ok: false, why: 'it is outside the workspace' };
  const confined = confine(root, rel.split(path.sep).join('/'));
  if (!confined.ok) {
    return { ok: false, why: confined.error.kind === 'permission' ? 'it leads outside the workspace' : confined.error.message.replace(/\.$/, '') };
  }
  try {
    if (!(await fs.stat(confined.path.abs)).isFile()) return { ok: false, why: 'it is not a file' };
  } catch {
    return { ok: false, why: 'there is no such file in the workspace' };
  }
  return { ok: true, abs: confined.path.abs };
}

/**
 * resolveImport's rules for a tree not yet on disk (a worktree being checked out, read from its
 * commit): the same refusals in the same words, links followed inside the tree.
 */
async function resolveTreeImport(files: FileSource, root: string, importer: string, target: string): Promise<{ ok: true; abs: string } | { ok: false; why: string }> {
  if (path.isAbsolute(target) || target.startsWith('~')) return { ok: false, why: 'only paths relative to the file are followed, inside the workspace' };
  const lexical = path.resolve(path.dirname(importer), target);
  const rel = path.relative(root, lexical);
  if (rel === '' || rel.startsWith('..') || path.isAbsolute(rel)) return { ok: false, why: 'it is outside the workspace' };
  const real = await files.realpath(lexical);
  if (!real) return { ok: false, why: 'there is no such file in the workspace' };
  const inside = path.relative(root, real);
  if (inside.startsWith('..') || path.isAbsolute(inside)) return { ok: false, why: 'it leads outside the workspace' };
  if ((await files.kind(real)) !== 'file') return { ok: false, why: 'it is not a file' };
  return { ok: true, abs: real };
}

/** The prompt section, cut at MAX_INSTRUCTION_CHARS of instruction text with a note saying what was left out. */
function compose(sections: Section[], sources: InstructionSource[], notes: string[]): { prompt: string } {
  const kept = sections.filter((s) => s.body.length > 0);
  if (kept.length === 0) return { prompt: '' };
  const parts: string[] = [
    '# Project instructions',
    "The user's standing instructions for this workspace follow, each under its file's name (paths are relative to the workspace; a later, more specific file refines an earlier one). Follow them unless the user says otherwise in the chat.",
  ];
  let left = MAX_INSTRUCTION_CHARS;
  const total = kept.reduce((sum, s) => sum + s.body.length, 0);
  for (const [i, section] of kept.entries()) {
    if (left <= 0) {
      markCut(sources, section.name);
      continue;
    }
    const body = section.body.length > left ? section.body.slice(0, left) : section.body;
    if (body.length < section.body.length) markCut(sources, section.name);
    left -= body.length;
    parts.push(`## ${section.name}`, body);
    if (left <= 0 && (body.length < section.body.length || i < kept.length - 1)) {
      const partly = body.length < section.body.length ? [`the rest of ${section.name}`] : [];
      const cut = [...partly, ...kept.slice(i + 1).map((s) => s.name)];
      const note = `The project instructions come to ${total.toLocaleString('en-US')} characters; only the first ${MAX_INSTRUCTION_CHARS.toLocaleString('en-US')} are included. Left out: ${cut.join(', ')}.`;
      notes.push(note);
      parts.push(`[Waypoint: ${note}]`);
    }
  }
  return { prompt: parts.join('\n\n') };
}

function markCut(sources: InstructionSource[], name: string): void {
  const source = sources.find((s) => s.name === name && !s.importedBy);
  if (source) source.cut = true;
}
