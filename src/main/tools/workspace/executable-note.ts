/**
 * What a dry run says about a file that runs as a program: an edit or overwrite keeps the file's
 * mode, so new text in an executable file (a script, a git hook) is run by whatever runs it next.
 * The approval card says so, since the diff alone looks like any text change.
 */
export function executableNote(rel: string, mode: number): string {
  if ((mode & 0o111) === 0) return '';
  return ` — ${rel} is executable (mode ${(mode & 0o777).toString(8)}) and stays so: the new text runs as a program`;
}
