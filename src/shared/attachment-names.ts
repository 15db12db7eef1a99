/**
 * A file's name as Waypoint shows it, sends it to Claude and writes it in an export. The name
 * comes from outside (a browser's File, a crafted web-shell client, an old log), so what could
 * change how it reads is taken out (docs/security.md, "Attachments"):
 *
 * - C0 and C1 controls, DEL and the Unicode line and paragraph separators would start a new line
 *   in the transcript, in Claude's view of the file and in an exported heading: each run of them
 *   becomes one space.
 * - Bidi embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069) and the invisible
 *   direction marks (U+200E, U+200F, U+061C) reorder what follows them, so "invoice\u202Efdp.exe"
 *   shows as "invoiceexe.pdf": they are removed. Letters of right-to-left scripts stay.
 * - A lone surrogate (half of an emoji) becomes U+FFFD, so the name always encodes.
 *
 * Everything else — accents, CJK, emoji with joiners — is kept as it was. Idempotent, and
 * capped at 255 code points (what file systems allow), for names that bypassed the boundary.
 */

export const MAX_FILE_NAME_CHARS = 255;

// Matching control characters is the point here.
// eslint-disable-next-line no-control-regex
const LINE_BREAKING = /[\u0000-\u001F\u007F-\u009F\u2028\u2029]+/g;
const BIDI_CONTROLS = /[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]/g;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Any outside text as one line, cleaned as above but not capped (a title, a tool's summary). */
export function oneLine(text: string): string {
  return text.replace(LONE_SURROGATE, '\uFFFD').replace(BIDI_CONTROLS, '').replace(LINE_BREAKING, ' ').trim();
}

export function cleanFileName(name: string): string {
  const cleaned = oneLine(name);
  const points = [...cleaned];
  return points.length > MAX_FILE_NAME_CHARS ? points.slice(0, MAX_FILE_NAME_CHARS).join('').trim() : cleaned;
}
