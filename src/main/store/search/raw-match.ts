/**
 * A quick test on one raw log line of an item (its JSON bytes) that never says no when the item's
 * text contains `needle` (already lower-cased or case-folded, as the search compares): find in
 * chat and the sidebar search then parse only the lines that may match, not a whole log. An item
 * whose text spans several lines (`text` records after its `item` record) is not filtered: a
 * match may straddle two of them.
 *
 * Why it never misses: JSON.stringify copies a string's characters verbatim except `"`, `\`,
 * control characters and lone surrogates, so each piece of an ASCII needle between those (and
 * spaces, where an item's parts are joined) is in the line as it is in the text, up to ASCII
 * case. The only characters whose lower case is ASCII are themselves ASCII, "İ" (U+0130, lower
 * "i̇") and the Kelvin sign (U+212A, lower "k"): a line holding either, or a `\u` escape, always
 * may match. A needle with any other non-ASCII character is not filtered.
 */
export function rawMayContain(needle: string): (line: Buffer) => boolean {
  // eslint-disable-next-line no-control-regex
  if (/[^\x00-\x7f]/.test(needle)) return () => true;
  // eslint-disable-next-line no-control-regex
  const pieces = needle.split(/[\x00-\x20"\\]+/).filter(Boolean);
  if (!pieces.length) return () => true;
  const patterns = pieces.map((piece) => new RegExp(piece.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&'), 'i'));
  return (line) => ALWAYS.some((bytes) => line.includes(bytes)) || matchesAll(line.toString('latin1'), patterns);
}

/** A `\u` escape, and the UTF-8 bytes of U+0130 and U+212A. */
const ALWAYS = [Buffer.from('\\u'), Buffer.from('\u0130'), Buffer.from('\u212a')];

function matchesAll(text: string, patterns: readonly RegExp[]): boolean {
  return patterns.every((pattern) => pattern.test(text));
}
