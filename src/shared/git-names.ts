/**
 * Names git gives its own folder, shared by main's protection rule (changes under it always ask,
 * tools/workspace/protected-paths.ts) and the approval rules (an allow rule for it would never
 * apply, so it is refused when it is made).
 */

/**
 * Code points HFS+ ignores in names: `.g\u200cit` is `.git` there. Git's own check strips the
 * same ones (is_hfs_dotgit).
 */
const HFS_IGNORED = /[\u200c-\u200f\u202a-\u202e\u206a-\u206f\ufeff]/g;

/**
 * Whether a path segment names git's folder (or the `.git` file of a worktree or submodule) on
 * some file system: in any case (macOS and Windows fold it), with the trailing dots and spaces or
 * the `::$INDEX_ALLOCATION` stream NTFS drops, or as its 8.3 short name `GIT~1`. Case variants
 * count on every platform: a workspace may live on (or be copied to) a case-insensitive disk,
 * and asking once too often costs a click.
 */
export function isGitSegment(segment: string): boolean {
  const folded = segment
    .replace(HFS_IGNORED, '')
    .replace(/:.*$/s, '')
    .replace(/[. ]+$/, '')
    .toLowerCase();
  return folded === '.git' || folded === 'git~1';
}
