import fs from 'node:fs/promises';
import { TextFileCache } from './text-file-cache';

/** What is at a path, links followed. */
export type FileKind = 'file' | 'dir';

/**
 * The few reads the project instructions and the skills list make of a workspace, so they can
 * come from the disk or, while a new worktree is still being checked out, from the commit it is
 * made of (git-tree-files.ts): never from a half-written tree. Paths are absolute, as on disk.
 */
export interface FileSource {
  /** Where `p` really is (symlinks followed), or null when nothing is there. */
  realpath(p: string): Promise<string | null>;
  /** A file or a folder (links followed), or null. */
  kind(p: string): Promise<FileKind | null>;
  /** Anything at all is at `p` (a link, even a dangling one, counts). */
  exists(p: string): Promise<boolean>;
  /** A regular file's text (its head: no prompt takes more), or null. */
  readText(p: string): Promise<string | null>;
  /** The names in a folder with whether each is a folder or a link; none when it is no folder. */
  entries(dir: string): Promise<Array<{ name: string; dir: boolean; link: boolean }>>;
}

/** The disk, with each text behind a stat cache (read per request: an unchanged file costs one stat). */
export class DiskFiles implements FileSource {
  private readonly cache = new TextFileCache();

  async realpath(p: string): Promise<string | null> {
    return fs.realpath(p).catch(() => null);
  }

  async kind(p: string): Promise<FileKind | null> {
    const stat = await fs.stat(p).catch(() => null);
    return stat?.isFile() ? 'file' : stat?.isDirectory() ? 'dir' : null;
  }

  async exists(p: string): Promise<boolean> {
    return fs.lstat(p).then(
      () => true,
      () => false,
    );
  }

  readText(p: string): Promise<string | null> {
    return this.cache.read(p);
  }

  async entries(dir: string): Promise<Array<{ name: string; dir: boolean; link: boolean }>> {
    const found = await fs.readdir(dir, { withFileTypes: true }).catch(() => []);
    return found.map((e) => ({ name: e.name, dir: e.isDirectory(), link: e.isSymbolicLink() }));
  }
}
