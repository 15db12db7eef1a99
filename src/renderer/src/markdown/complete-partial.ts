/**
 * While a reply streams, its last paragraph is often cut in the middle of an inline construct:
 * "**Se" (bold not closed yet), "`npm te" (code), "[the docs](https://exa". Lexed as it is, that
 * shows raw asterisks and backticks for a moment and then jumps into formatting. This closes what
 * is open at the end of the text (or drops a marker with nothing after it yet), so the partial
 * text renders the way it will once complete. Only the open tail of a streaming reply gets this;
 * finished text is never changed.
 */

const FENCE_LINE = /^ {0,3}(`{3,}|~{3,})/;

/** Inside an unclosed fenced code block, nothing is inline markdown: leave the text alone. */
function inOpenFence(text: string): boolean {
  let open: string | null = null;
  for (const line of text.split('\n')) {
    const fence = FENCE_LINE.exec(line)?.[1];
    if (!fence) continue;
    if (open === null) open = fence;
    else if (fence[0] === open[0] && fence.length >= open.length && line.trim() === fence) open = null;
  }
  return open !== null;
}

type Marker = '**' | '__' | '*' | '_' | '~~';

interface Open {
  marker: Marker;
  /** Where the marker starts in the block. */
  at: number;
}

const isWordChar = (c: string | undefined) => c !== undefined && /[\p{L}\p{N}]/u.test(c);
const isSpace = (c: string | undefined) => c === undefined || /\s/.test(c);

/** The emphasis markers and code span left open at the end of one block of inline text. */
function scan(block: string): { opens: Open[]; code: { ticks: string; at: number } | null } {
  const opens: Open[] = [];
  let code: { ticks: string; at: number } | null = null;
  let lineStart = true;
  for (let i = 0; i < block.length; ) {
    const c = block[i]!;
    if (c === '\n') {
      lineStart = true;
      i++;
      continue;
    }
    if (c === '\\') {
      i += 2;
      lineStart = false;
      continue;
    }
    if (c === '`') {
      let run = 1;
      while (block[i + run] === '`') run++;
      const ticks = '`'.repeat(run);
      if (code === null) code = { ticks, at: i };
      else if (code.ticks === ticks) code = null;
      i += run;
      lineStart = false;
      continue;
    }
    if (code !== null) {
      i++;
      continue;
    }
    // A list bullet ("* item", "- item") or a rule is not emphasis.
    if (lineStart && (c === '*' || c === '-' || c === '+') && isSpace(block[i + 1])) {
      i += 2;
      lineStart = false;
      continue;
    }
    if (lineStart && c === ' ') {
      i++;
      continue;
    }
    lineStart = false;
    if (c === '*' || c === '_' || c === '~') {
      let run = 1;
      while (block[i + run] === c) run++;
      const markers: Marker[] = c === '~' ? (run >= 2 ? ['~~'] : []) : run >= 3 ? [`${c}${c}` as Marker, c] : [(run === 2 ? `${c}${c}` : c) as Marker];
      const before = block[i - 1];
      const after = block[i + run];
      for (const marker of markers) {
        const closing = opens.findIndex((o) => o.marker === marker);
        if (closing !== -1 && !isSpace(before)) opens.splice(closing); // closes it (and anything opened inside)
        // At the very end a marker may still open something: it is held (and not shown) for now.
        else if ((after === undefined || !isSpace(after)) && !(c === '_' && isWordChar(before))) opens.push({ marker, at: i });
        // else: "a * b", snake_case — a literal character
      }
      i += run;
      continue;
    }
    i++;
  }
  return { opens, code };
}

/** The text with what is open at its end closed, ready to lex while it streams. */
export function completePartialMarkdown(text: string): string {
  if (!text || inOpenFence(text)) return text;
  const blockStart = Math.max(0, text.lastIndexOf('\n\n') + 1);
  let block = text.slice(blockStart);
  const { opens, code } = scan(block);
  if (code !== null) {
    // A code span still being typed: closed; or, with nothing in it yet, not shown.
    const content = block.slice(code.at + code.ticks.length);
    block = content.trim() === '' ? block.slice(0, code.at) : block + code.ticks;
  }
  let closers = '';
  for (let k = opens.length - 1; k >= 0; k--) {
    const open = opens[k]!;
    const content = block.slice(open.at + open.marker.length);
    if (content.trim() === '') {
      block = block.slice(0, open.at); // a marker with nothing after it yet: don't show it
      continue;
    }
    closers += open.marker;
  }
  block = closers ? block.trimEnd() + closers : block;
  // A link whose URL is still arriving: "[the docs](https://exa" → a link, not raw brackets.
  if (code === null && /\[[^\]\n]*\]\([^)\s]*$/.test(block)) block += ')';
  return text.slice(0, blockStart) + block;
}
