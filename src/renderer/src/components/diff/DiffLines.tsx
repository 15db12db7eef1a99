import './diff.css';

type LineKind = 'add' | 'del' | 'hunk' | 'meta' | 'ctx';

function lineKind(line: string): LineKind {
  if (line.startsWith('+++') || line.startsWith('---') || line.startsWith('Index:') || line.startsWith('====')) return 'meta';
  if (line.startsWith('@@')) return 'hunk';
  if (line.startsWith('+')) return 'add';
  if (line.startsWith('-')) return 'del';
  return 'ctx';
}

/** Screen readers hear what a line does, not just a "+" or "-"; colour is not the only sign. */
const SR_PREFIX: Partial<Record<LineKind, string>> = { add: 'Added: ', del: 'Removed: ' };

/**
 * Where a unified diff starts in a text ("--- a/…" then "+++ b/…", as the file tools write them),
 * or -1: a tool result is shown as a diff only when it holds one, so a list of "- items" is not.
 */
export function diffStart(lines: readonly string[]): number {
  return lines.findIndex((line, i) => line.startsWith('--- ') && lines[i + 1]?.startsWith('+++ ') && lines.slice(i + 2).some((l) => l.startsWith('@@')));
}

/** The lines of a text holding a unified diff, from `from` on each marked added, removed or context. */
export function DiffLines({ lines, from = 0 }: { lines: readonly string[]; from?: number }) {
  return (
    <>
      {lines.map((line, i) => {
        const kind = i < from ? 'ctx' : lineKind(line);
        return (
          <span key={i} className={`diff-line diff-line--${kind}`} data-diff={kind}>
            {SR_PREFIX[kind] && <span className="sr-only">{SR_PREFIX[kind]}</span>}
            {line}
          </span>
        );
      })}
    </>
  );
}
