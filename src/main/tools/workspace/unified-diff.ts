import { createTwoFilesPatch } from 'diff';

const MAX_DIFF_CHARS = 8000;

/** A git-style unified diff, capped so an approval card or tool result stays readable. */
export function unifiedDiff(rel: string, before: string, after: string, maxChars = MAX_DIFF_CHARS): string {
  const patch = createTwoFilesPatch(`a/${rel}`, `b/${rel}`, before, after, undefined, undefined, { context: 3 });
  const body = patch.replace(/^=+\n/, '').trimEnd();
  if (body.length <= maxChars) return body;
  return `${body.slice(0, maxChars)}\n… [diff cut: ${body.length - maxChars} more characters]`;
}
