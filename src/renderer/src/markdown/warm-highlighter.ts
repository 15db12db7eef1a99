import hljs from 'highlight.js/lib/core';
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

/**
 * hljs compiles a grammar the first time it highlights that language (≈ 30 ms for TypeScript,
 * more on a slow machine): paid inside the React commit that mounts a reply's first code block,
 * it was the long task at the start of a stream (issue 15 item 5). Compile every registered
 * grammar while the page is idle after start-up instead, one language per idle callback so no
 * single callback becomes a long task. Resolves with the languages warmed, in order.
 */
export function warmHighlighter(schedule: IdleSchedule = idle, timeoutMs = 5000): Promise<string[]> {
  const pending = hljs.listLanguages();
  const warmed: string[] = [];
  return new Promise((resolve) => {
    const next = () => {
      const language = pending.shift();
      if (language === undefined) return resolve(warmed);
      hljs.highlight(SAMPLE, { language, ignoreIllegals: true });
      warmed.push(language);
      schedule(next, timeoutMs);
    };
    schedule(next, timeoutMs);
  });
}
