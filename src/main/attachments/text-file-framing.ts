import { cleanFileName } from '../../shared/attachment-names';

/**
 * How a text file goes to Claude: its text, verbatim, between an opening and a closing line.
 * A file could hold any line — "</file>" and then text that reads as Waypoint's — so the closing
 * line carries the file's SHA-256, which is the attachment's id: a file cannot contain its own
 * hash, so it cannot write its own end. Deterministic (the same file, the same block), so the
 * prompt cache still hits. The name is cleaned (one line, no bidi overrides) and escaped as an
 * attribute, so it cannot end the opening line either (docs/security.md).
 */
export function frameTextFile(name: string, sha256: string, text: string): string {
  return `<file name="${escapeAttribute(cleanFileName(name))}" sha256="${sha256}">\n${text}\n</file sha256="${sha256}">`;
}

function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
