import hljs from 'highlight.js/lib/core';
import { marked } from 'marked';
import './highlight'; // registers the languages this warms

/** Runs `work` when the page is idle (or after `timeoutMs` at the latest). */
export type IdleSchedule = (work: () => void, timeoutMs: number) => void;

const idle: IdleSchedule = (work, timeoutMs) => {
  if (typeof window !== 'undefined' && typeof window.requestIdleCallback === 'function') window.requestIdleCallback(() => work(), { timeout: timeoutMs });
  else setTimeout(work, 0);
};

// Enough of each grammar's common paths (keywords, strings, comments) that the regexes are built
// and run once; the result is thrown away, so the highlight cache keeps only real blocks.
const SAMPLE = 'const a = "b"; // c\nfunction d(e) { return e + 1; }\n<f g="h">i</f>\n';

// Every block kind a reply uses, so marked's block and inline rules have all run once.
const MARKDOWN = [
  '# Heading',
  '',
  'Setext heading',
  '---',
  '',
  'A paragraph with **bold**, *emphasis*, `code`, ~~struck~~ text, a [link](https://example.com) and <https://example.com>.',
  '',
  '- a list item',
  '  - nested, with **bold**',
  '1. ordered',
  '',
  '> a quote with `code`',
  '',
  '| a | b |',
  '| --- | ---: |',
  '| 1 | 2 |',
  '',
  '```typescript',
  'const a = 1;',
  '```',
  '',
  '    indented code',
  '',
  '***',
].join('\n');

/**
 * Work the first reply of a session paid inside its first commits — the long task at the start
 * of a stream (issue 15 item 5), done instead while the page is idle after start-up:
 * - marked's lexer: its regular expressions are compiled on first use (marked's rules are many
 *   and long; `lheading` alone was ≈ 20 ms in the first stream's profile);
 * - hljs compiles a grammar the first time it highlights that language (≈ 30 ms for TypeScript,
 * more on a slow machine): paid inside the React commit that mounts a reply's first code block,
 * and the first stream's
 *   first code block paid it.
 * One step per idle callback (the lexer, then one language each), so no callback becomes a long
 * task. Resolves with the steps done, in order ('markdown', then the languages).
 */
export function warmMarkdown(schedule: IdleSchedule = idle, timeoutMs = 5000): Promise<string[]> {
  const steps: Array<[string, () => void]> = [
    ['markdown', () => void marked.lexer(MARKDOWN, { gfm: true })],
    ...hljs.listLanguages().map((language): [string, () => void] => [language, () => void hljs.highlight(SAMPLE, { language, ignoreIllegals: true })]),
  ];
  const done: string[] = [];
  return new Promise((resolve) => {
    const next = () => {
      const step = steps.shift();
      if (step === undefined) return resolve(done);
      step[1]();
      done.push(step[0]);
      schedule(next, timeoutMs);
    };
    schedule(next, timeoutMs);
  });
}
