import { z } from 'zod';
import { fail, ok, type ToolDefinition } from '../tool';
import { confine } from './confine';
import { guarded } from './fs-errors';
import { closeQuietly, openInside, readAll } from './verified-open';
import { defineTool } from '../define-tool';
import { looksBinary } from './text-sniff';
import { formatCount } from './tool-input';

/** Beyond these, output is cut with a notice saying how to read the rest. */
export const READ_MAX_LINES = 2000;
export const READ_MAX_BYTES = 100 * 1024;
/** Files above this are not loaded at all. */
const READ_HARD_LIMIT = 50 * 1024 * 1024;

const Input = z
  .object({
    path: z.string().min(1).describe('File path relative to the workspace root, e.g. src/app.ts'),
    start_line: z.number().int().min(1).max(10_000_000).optional().describe('First line to read (1-based)'),
    end_line: z.number().int().min(1).max(10_000_000).optional().describe('Last line to read (inclusive)'),
  })
  .strict()
  .refine((v) => v.start_line === undefined || v.end_line === undefined || v.end_line >= v.start_line, {
    message: 'end_line must be >= start_line',
    path: ['end_line'],
  });
type Input = z.infer<typeof Input>;

const numbered = (lines: readonly string[], first: number): string => {
  const width = String(first + lines.length - 1).length;
  return lines.map((line, i) => `${String(first + i).padStart(width)}\t${line}`).join('\n');
};

function render(rel: string, text: string, input: Input): string {
  if (text === '') return `${rel} is empty (0 bytes).`;
  const lines = text.split('\n');
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop(); // trailing newline
  const total = lines.length;
  const ranged = input.start_line !== undefined || input.end_line !== undefined;
  const start = input.start_line ?? 1;
  if (start > total) throw new RangeError(`${rel} has only ${formatCount(total)} lines; start_line ${start} is past the end.`);
  const wantedEnd = Math.min(input.end_line ?? total, total);

  // Take lines until either budget runs out.
  const taken: string[] = [];
  let bytes = 0;
  for (let n = start; n <= wantedEnd && taken.length < READ_MAX_LINES; n++) {
    const line = lines[n - 1] ?? '';
    const size = Buffer.byteLength(line) + 1;
    if (bytes + size > READ_MAX_BYTES) {
      if (taken.length === 0) taken.push(`${line.slice(0, READ_MAX_BYTES)} … [line cut: ${formatCount(line.length)} characters]`);
      break;
    }
    taken.push(line);
    bytes += size;
  }
  const end = start + taken.length - 1;
  const cut = end < wantedEnd;

  if (!ranged && !cut) return text; // Whole file fits: exactly as on disk, ready for edit_file.
  const header = `${rel} (lines ${start}–${end} of ${formatCount(total)}):`;
  const notice = cut
    ? `\n[Truncated: showing lines ${start}–${end} of ${formatCount(total)}. Read the rest with start_line=${end + 1}.]`
    : '';
  return `${header}\n${numbered(taken, start)}${notice}`;
}

export function createReadFileTool(root: string): ToolDefinition {
  const summarize = (v: Input): string => {
    if (v.start_line === undefined && v.end_line === undefined) return `Read ${v.path}`;
    return `Read ${v.path} (lines ${v.start_line ?? 1}–${v.end_line ?? 'end'})`;
  };
  return defineTool({
    name: 'read_file',
    description:
      'Read a text file in the workspace. Whole files come back as-is; with start_line/end_line (or when the file is long) lines are numbered. ' +
      `Output is capped at ${READ_MAX_LINES} lines / ${READ_MAX_BYTES / 1024} KB; binary files are described, not shown.`,
    input: Input,
    group: 'workspace',
    readOnly: true,
    label: 'Read a file',
    summarize,
    describeDryRun: summarize,
    needsApproval: () => false,
    async execute(input) {
      const target = confine(root, input.path);
      if (!target.ok) return target;
      const { rel } = target.path;
      return guarded('read', rel, async () => {
        const opened = openInside(root, input.path, 'read');
        if (!opened.ok) return opened;
        const data = await (async () => {
          try {
            if (opened.file.stat.size > READ_HARD_LIMIT) return null;
            return await readAll(opened.file);
          } finally {
            closeQuietly(opened.file.fd);
          }
        })();
        if (!data) return fail('invalid_parameter', `${rel} is ${formatCount(opened.file.stat.size)} bytes, too large to read. Use search_files to find the part you need.`);
        if (looksBinary(data)) return ok(`${rel}: binary file, ${formatCount(data.length)} bytes — not shown.`);
        try {
          return ok(render(rel, data.toString('utf8'), input));
        } catch (error) {
          if (error instanceof RangeError) return fail('invalid_parameter', error.message);
          throw error;
        }
      });
    },
  });
}
