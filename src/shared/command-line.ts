/**
 * Exact command-line matching for the allow-list (and for approval rules, which match "that
 * exact command line, whitespace-normalised; never a prefix that lets more arguments through").
 * Pure: no shell is run. A rule covers a command only when both split into the same words; the
 * words keep their quotes, so only whitespace BETWEEN words is normalised ("echo  'a  b'" and
 * "echo 'a  b'" match; "echo 'a b'" does not). Any extra argument — `--output=/elsewhere`, `-o`,
 * `--exec` — makes a different command line that needs approval again.
 */

// ; & | > < $( ` and line breaks: sequencing, pipes, redirection, substitution.
const SHELL_CONTROL = /[;&|<>`\n\r]|\$\(/;

export function hasShellControl(command: string): boolean {
  return SHELL_CONTROL.test(command);
}

/**
 * The words of a command line as sh would split them (quotes and backslashes respected, each
 * word's text kept as written), or null when a quote is left open.
 */
export function commandWords(line: string): string[] | null {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  let quote: "'" | '"' | null = null;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!;
    if (quote) {
      word += ch;
      if (ch === '\\' && quote === '"' && i + 1 < line.length) word += line[++i];
      else if (ch === quote) quote = null;
      continue;
    }
    if (ch === ' ' || ch === '\t') {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
      continue;
    }
    inWord = true;
    word += ch;
    if (ch === '\\' && i + 1 < line.length) word += line[++i];
    else if (ch === "'" || ch === '"') quote = ch;
  }
  if (quote) return null;
  if (inWord) words.push(word);
  return words;
}

/** The command line with single spaces between its words; null when it cannot be split. */
export function normaliseCommandLine(line: string): string | null {
  const words = commandWords(line);
  return words ? words.join(' ') : null;
}

/**
 * Does `rule` cover `command`? The same words in the same order, nothing more. A line with shell
 * control operators (on either side) or an open quote is never covered.
 */
export function matchesCommandLine(command: string, rule: string): boolean {
  if (hasShellControl(command) || hasShellControl(rule)) return false;
  const a = normaliseCommandLine(command);
  const b = normaliseCommandLine(rule);
  return a !== null && b !== null && a !== '' && a === b;
}
