/**
 * Case-insensitive plain-text matching shared by main's find-in-chat and the renderer's
 * highlighter, so both count the same matches. Folding keeps every UTF-16 unit in place: a
 * character whose lower case is longer ("İ" → "i̇") is left as it is, so an offset found in the
 * folded text is the same offset in the original.
 */
export function foldCase(text: string): string {
  const lower = text.toLowerCase();
  // Lower-casing only ever lengthens a character, so equal lengths mean every unit kept its place.
  if (lower.length === text.length) return lower;
  let out = '';
  for (const ch of text) {
    const folded = ch.toLowerCase();
    out += folded.length === ch.length ? folded : ch;
  }
  return out;
}

/**
 * Offsets of the non-overlapping matches of `needle` in `haystack`, left to right, as find-in-page
 * counts them. Both are folded by the caller (foldCase) so a long text is folded once.
 */
export function matchOffsets(foldedHaystack: string, foldedNeedle: string, limit = Number.POSITIVE_INFINITY): number[] {
  const offsets: number[] = [];
  if (!foldedNeedle) return offsets;
  let from = 0;
  while (offsets.length < limit) {
    const at = foldedHaystack.indexOf(foldedNeedle, from);
    if (at < 0) break;
    offsets.push(at);
    from = at + foldedNeedle.length;
  }
  return offsets;
}
