/** Locating edit_file's old_text: exact occurrences, their lines, and a hint on a near miss. */

export function lineAt(text: string, index: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < index; i = text.indexOf('\n', i + 1)) line++;
  return line;
}

export function occurrences(text: string, needle: string): number[] {
  const found: number[] = [];
  for (let i = text.indexOf(needle); i !== -1; i = text.indexOf(needle, i + needle.length)) found.push(i);
  return found;
}

const squash = (s: string): string => s.replace(/\s+/g, ' ').trim();

/**
 * Why old_text was not found, when that is cheap to tell: it matches apart from whitespace, or
 * its first non-blank line is there but what follows differs.
 */
export function nearMissHint(text: string, oldText: string): string {
  const lines = text.split('\n');
  const wanted = squash(oldText);
  const oldLines = oldText.split('\n').map((l) => l.trim()).filter((l) => l !== '');
  const first = oldLines[0];
  if (first === undefined) return '';
  for (let i = 0; i < lines.length; i++) {
    if ((lines[i] ?? '').trim() !== first) continue;
    const window = squash(lines.slice(i, i + oldLines.length + 5).join('\n'));
    if (window.startsWith(wanted)) {
      return ` A match that differs only in whitespace/indentation starts at line ${i + 1}; copy the text exactly as read_file shows it.`;
    }
    return ` Its first line appears at line ${i + 1}, but the lines after it differ; read_file around line ${i + 1} and copy the text exactly.`;
  }
  return ' Read the file again (it may have changed) and copy old_text exactly, including indentation.';
}
