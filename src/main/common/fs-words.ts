/**
 * What a failed file-system call means, in words a person can act on: "the disk is full", not
 * "internal error" or "ENOSPC: no space left on device, write". The code stays in brackets for
 * a bug report.
 */
const WORDS: Record<string, string> = {
  ENOSPC: 'the disk is full',
  EDQUOT: 'the disk quota is used up',
  EACCES: 'permission to write there was denied',
  EPERM: 'the operation was not permitted',
  EROFS: 'the disk is read-only',
  EIO: 'the disk reported an input/output error',
  EMFILE: 'too many files are open',
  ENFILE: 'too many files are open on this computer',
  ENOENT: 'its folder no longer exists',
  ENOTDIR: 'a folder on its path is a file',
  EISDIR: 'a folder is in the way',
  ENXIO: 'it is not a regular file (a pipe, socket or device)',
  EAGAIN: 'it is not a regular file (a pipe, socket or device)',
  ENOTREG: 'it is not a regular file (a pipe, socket, device or folder)',
};

export function errorCode(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && 'code' in error && typeof (error as { code: unknown }).code === 'string' ? (error as { code: string }).code : undefined;
}

/** "the disk is full (ENOSPC)"; an unknown failure says its own message. */
export function fsFailureWords(error: unknown): string {
  const code = errorCode(error);
  const words = code ? WORDS[code] : undefined;
  if (words) return `${words} (${code})`;
  return error instanceof Error ? error.message : String(error);
}
