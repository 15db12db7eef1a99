import { formatCount } from '../../../../shared/numbers';
/**
 * A long user message (a pasted log, a whole file) shows collapsed: its first lines and a "Show
 * all" button, so a 200 KB paste is not a 60,000 px bubble (and not 200 KB of layout).
 */
export const PREVIEW_LINES = 12;
export const PREVIEW_CHARS = 800;
/** Only a message clearly longer than the preview collapses: never "show 1 more line". */
const COLLAPSE_LINES = 16;
const COLLAPSE_CHARS = 1200;

export interface MessagePreview {
  /** The start of the message, cut at a line end or a space. */
  text: string;
  /** "12 of 4,213 lines" or "1,200 of 204,800 characters". */
  shown: string;
}

function lineCount(text: string, upTo = Infinity): number {
  let lines = 1;
  for (let i = text.indexOf('\n'); i !== -1 && lines < upTo; i = text.indexOf('\n', i + 1)) lines++;
  return lines;
}

const format = (n: number) => formatCount(n);

/** The collapsed form of a message, or null when it is short enough to show whole. */
export function messagePreview(text: string): MessagePreview | null {
  if (text.length <= COLLAPSE_CHARS && lineCount(text, COLLAPSE_LINES + 1) <= COLLAPSE_LINES) return null;
  let end = Math.min(text.length, PREVIEW_CHARS);
  let newline = -1;
  for (let i = 0, seen = 0; i < end; i++) {
    if (text[i] !== '\n') continue;
    if (++seen === PREVIEW_LINES) {
      newline = i;
      break;
    }
  }
  if (newline !== -1) end = newline;
  else if (end < text.length) {
    // Mid-line: end at the last space of the window when there is one not too far back.
    const space = text.lastIndexOf(' ', end);
    if (space > end * 0.8) end = space;
  }
  const preview = text.slice(0, end).trimEnd();
  const totalLines = lineCount(text);
  const shown =
    totalLines > 1 && lineCount(preview) < totalLines
      ? `${format(lineCount(preview))} of ${format(totalLines)} lines`
      : `${format(preview.length)} of ${format(text.length)} characters`;
  return { text: preview, shown };
}
