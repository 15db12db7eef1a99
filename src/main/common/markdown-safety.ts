import { marked, type Token, type Tokens } from 'marked';
import { oneLine } from '../../shared/attachment-names';

/**
 * Text from others (the user, Claude, tools, file names, a chat's title) written into a Markdown
 * file (the chat export) so that a viewer shows it and nothing more: no live HTML, and no
 * heading, link or list the text did not have in its own place. `marked` (GitHub-flavoured
 * Markdown) is the reader every choice here is checked against (docs/security.md).
 */

/** One line of plain text (a name, a title, a summary): line breaks gone, every markup character escaped. */
export function inlineText(text: string): string {
  return (
    oneLine(text)
      // Backslash escapes are plain CommonMark: `\[` is never a link, `\*` never emphasis.
      .replace(/[\\`*_[\]&!|~#]/g, '\\$&')
      // Angle brackets as entities, not backslash escapes: GFM's bare-URL links can swallow a
      // backslash ("https://a.b\<img…"), and an entity has no "<" left to start a tag with.
      .replace(/</g, '&lt;')
      .replace(/>/g, '&gt;')
      // At the start of a line these would begin a list or a setext underline.
      .replace(/^([-+=])/, '\\$1')
      .replace(/^(\d+)([.)])/, '$1\\$2')
  );
}

/**
 * One line of outside text that keeps its inline Markdown (emphasis, `code`, links) but adds no
 * structure where it is put (a plan's goal, a step's title, a reason, as a heading's text, a list
 * item's or a paragraph of its own): line breaks gone, no live HTML ("<" as `&lt;` outside its own
 * code spans), a backtick run it leaves unclosed escaped (it could pair with a backtick of the
 * next text on the line and turn that text's "<" live), nothing at its start that opens a block
 * (heading, list, quote, fence, rule, link definition), and no backslash at its end to eat the
 * character after it. Text that needs none of this comes back as it was, trimmed.
 */
export function markdownLine(text: string): string {
  // WBS.md is rewritten on every plan change: each step below runs only on text that needs it.
  const line = oneLine(LINE_BREAK.test(text) ? text.replace(/\s*[\r\n\u2028\u2029]\s*/g, ' ') : text);
  let inline = /[<`\\]/.test(line) ? escapeHtml(line, true) : line;
  if (inline.endsWith('\\')) inline = inline.replace(/(^|[^\\])((?:\\\\)*)\\$/, '$1$2\\\\');
  return /^[#>+*=_~`[\d-]/.test(inline) ? escapeBlockStart(inline) : inline;
}

const LINE_BREAK = /[\r\n\u2028\u2029]/;

/** What opens a block at the start of a line (CommonMark), escaped so it reads as text. */
function escapeBlockStart(line: string): string {
  if (/^(#{1,6}|[-+*])(\s|$)/.test(line) || /^(>|`{3}|~{3}|\[[^\]]*\]:)/.test(line)) return `\\${line}`;
  if (/^([-_*=])(\s*\1)*\s*$/.test(line)) return `\\${line}`;
  const numbered = /^(\d{1,9})([.)])(\s|$)/.exec(line);
  return numbered ? `${numbered[1]}\\${line.slice(numbered[1]!.length)}` : line;
}

/** One line as inline code: a fence longer than any run of backticks in it. */
export function codeSpan(text: string): string {
  const line = oneLine(text);
  if (!line) return '';
  const fence = '`'.repeat(longestRun(line, '`') + 1);
  const pad = line.startsWith('`') || line.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${line}${pad}${fence}`;
}

/** Any text verbatim as a fenced code block (a tool's result, a text file). */
export function fencedBlock(text: string): string {
  const fence = '`'.repeat(Math.max(3, longestRun(text, '`') + 1));
  return `${fence}\n${text}\n${fence}`;
}

/**
 * A message's Markdown as the message showed it — emphasis, lists, code — with raw HTML turned
 * into text, headings kept below the export's own (level 3 and down, so no text can pose as a
 * turn), and a code fence left open closed at the end of the message (it would swallow the rest
 * of the export). Code blocks and inline code are left as written (an entity there would show
 * as "&lt;"), except a code block nested in a list or quote that also holds HTML. Should a viewer
 * still find HTML or a top heading in the result, the message goes as a code block instead:
 * readable, and inert.
 */
export function markdownBody(text: string): string {
  // A rewrite can change what follows it (an HTML block that swallowed a fence line becomes a
  // paragraph, and the fence opens), so the result is read again until nothing changes.
  let out = text;
  for (let pass = 0; pass < MAX_PASSES; pass++) {
    const next = marked
      .lexer(out)
      .map((token) => rewrite(token))
      .join('');
    if (next === out) break;
    out = next;
  }
  return isInert(out) ? out : fencedBlock(text);
}

const MAX_PASSES = 4;

function rewrite(token: Token): string {
  if (token.type === 'code') return closeFence(token.raw);
  if (token.type === 'heading' && (token as Tokens.Heading).depth <= 2) {
    const heading = token as Tokens.Heading;
    return `### ${escapeHtml(oneLine(heading.text))}${trailingNewlines(heading.raw) || '\n'}`;
  }
  return hasHtml(token) ? escapeHtml(token.raw) : token.raw;
}

function hasHtml(token: Token): boolean {
  let found = false;
  void marked.walkTokens([token], (inner) => {
    if (inner.type === 'html') found = true;
  });
  return found;
}

/** No live HTML anywhere, no heading of level 1 or 2 at the top: what `markdownBody` promises. */
function isInert(markdown: string): boolean {
  const top = marked.lexer(markdown);
  if (top.some((t) => t.type === 'heading' && (t as Tokens.Heading).depth <= 2)) return false;
  return !hasHtml({ type: 'blockquote', raw: markdown, text: markdown, tokens: top } as Tokens.Blockquote);
}

/**
 * Every "<" that could open a tag, as `&lt;` (shown as "<"), except inside inline code spans,
 * where an entity would show as written; "\<" is already text. Code spans are found by matching
 * backtick runs; where that differs from the viewer, `isInert` catches it. With
 * `escapeUnclosedTicks`, a backtick run that closes nowhere is escaped (`\``), so it cannot pair
 * with one in text put after it.
 */
function escapeHtml(raw: string, escapeUnclosedTicks = false): string {
  let out = '';
  let i = 0;
  while (i < raw.length) {
    const c = raw[i]!;
    if (c === '\\') {
      out += raw.slice(i, i + 2);
      i += 2;
    } else if (c === '`') {
      let run = 1;
      while (raw[i + run] === '`') run++;
      const close = closingRun(raw, i + run, run);
      const end = close === -1 ? i + run : close + run;
      out += close === -1 && escapeUnclosedTicks ? '\\`'.repeat(run) : raw.slice(i, end);
      i = end;
    } else {
      out += c === '<' ? '&lt;' : c;
      i++;
    }
  }
  return out;
}

/** Where a run of exactly `length` backticks starts at or after `from`, or -1. */
function closingRun(text: string, from: number, length: number): number {
  for (let i = from; i < text.length; i++) {
    if (text[i] !== '`') continue;
    let run = 1;
    while (text[i + run] === '`') run++;
    if (run === length) return i;
    i += run - 1;
  }
  return -1;
}

/** A fenced code block the message left open ends where the message ends. */
function closeFence(raw: string): string {
  const opener = /^ {0,3}(`{3,}|~{3,})/.exec(raw);
  if (!opener) return raw;
  const fence = opener[1]!;
  const lines = raw.replace(/\n+$/, '').split('\n');
  const last = lines.at(-1)!;
  const closed = lines.length > 1 && new RegExp(`^ {0,3}${fence[0] === '`' ? '`' : '~'}{${fence.length},}[ \\t]*$`).test(last);
  return closed ? raw : `${lines.join('\n')}\n${fence}\n${trailingNewlines(raw)}`;
}

function trailingNewlines(raw: string): string {
  return /\n*$/.exec(raw)![0];
}

function longestRun(text: string, char: string): number {
  let best = 0;
  let run = 0;
  for (const c of text) {
    run = c === char ? run + 1 : 0;
    if (run > best) best = run;
  }
  return best;
}
