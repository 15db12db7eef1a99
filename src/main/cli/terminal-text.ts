/**
 * Text that Claude or a tool wrote, made safe to print on a terminal. A terminal obeys what it is
 * sent: OSC 0 retitles the window, OSC 52 writes the clipboard, OSC 8 hides a link behind other
 * words, DCS/APC/PM/SOS talk to the terminal itself, CSI moves the cursor and erases, and a bare
 * carriage return overwrites what a line said. None of that is ours to pass on (docs/security.md,
 * "Command line and web shell").
 *
 * strip-ansi (ansi-regex) was measured on the same strings and leaves ESC behind in OSC 8 links,
 * DCS and APC strings, and carriage returns untouched, so the rules are spelt out here instead.
 */

import { oneLine } from '../../shared/attachment-names';

/** OSC, DCS, SOS, PM, APC (7-bit ESC ] P X ^ _ or their C1 forms): the whole string, payload and all, up to BEL or ST — or the end, when it never ends. */
// eslint-disable-next-line no-control-regex
const STRING_SEQUENCE = /(?:\u001b[\]PX^_]|[\u0090\u0098\u009d\u009e\u009f])[\s\S]*?(?:\u0007|\u001b\\|\u009c|$)/g;
/** CSI (ESC [ or C1 0x9b): parameter bytes, intermediate bytes, one final byte. */
// eslint-disable-next-line no-control-regex
const CSI_SEQUENCE = /(?:\u001b\[|\u009b)[0-?]*[ -/]*[@-~]/g;
/** Any other escape: ESC, intermediates, a final byte (ESC c resets the terminal, ESC 7/8 move the cursor). */
// eslint-disable-next-line no-control-regex
const OTHER_ESCAPE = /\u001b[ -/]*[0-~]/g;
/** What is left of control characters: C0 but tab and newline, DEL, C1 (lone ESC and CR among them). */
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;
/**
 * Bidi embeddings, overrides and isolates: they make the terminal show text in an order other
 * than the one it has ("Trojan Source"), so a command or path can read as something else.
 */
const BIDI_CONTROL = /[\u202a-\u202e\u2066-\u2069]/g;

/** The text as a terminal should show it: escapes and controls removed, newlines and tabs kept. */
export function terminalText(text: string): string {
  return text.replace(STRING_SEQUENCE, '').replace(CSI_SEQUENCE, '').replace(OTHER_ESCAPE, '').replace(CONTROL, '').replace(BIDI_CONTROL, '');
}

/**
 * Characters that JSON.stringify leaves raw but a terminal (or an editor) may act on: DEL and C1
 * controls, bidi controls, and the two JavaScript line terminators. Escaped, they are still the
 * same string once decoded.
 */
const JSON_UNSAFE = /[\u007f-\u009f\u202a-\u202e\u2066-\u2069\u2028\u2029]/g;

/** JSON.stringify with every control character escaped (\uXXXX): the content unchanged, the bytes inert on a terminal. */
export function inertJson(value: unknown): string {
  return JSON.stringify(value).replace(JSON_UNSAFE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * A name shown as one line (a chat title, a holder): escape sequences gone with their payload,
 * then cleaned as a file name is (oneLine: controls, direction marks, lone surrogates), whitespace
 * runs made one space, at most `max` characters.
 */
export function oneLineName(text: string, max: number): string {
  const line = oneLine(terminalText(text)).replace(/\s+/g, ' ');
  const chars = Array.from(line);
  return chars.length > max ? `${chars.slice(0, max - 1).join('').trimEnd()}…` : line;
}
