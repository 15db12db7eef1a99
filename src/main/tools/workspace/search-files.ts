import fs from 'node:fs/promises';
import { RE2JS } from 're2js';
import { z } from 'zod';
import { fail, ok, type ToolDefinition } from '../tool';
import { canonicalRoot, confine } from './confine';
import { guarded } from './fs-errors';
import { defineTool } from '../define-tool';
import { looksBinary } from './text-sniff';
import { errorMessage, formatCount } from './tool-input';
import { closeQuietly, openInside, readAll } from './verified-open';
import { OffLimits } from './off-limits';
import { walk, type WalkEntry } from './walk';

const DEFAULT_MAX_RESULTS = 100;
const MAX_FILE_BYTES = 2 * 1024 * 1024;
const MAX_LINE_SHOWN = 200;

const Input = z
  .object({
    pattern: z.string().min(1).max(1000).describe('Text to find (or a regular expression in RE2 syntax when regex is true: no look-around or back-references)'),
    regex: z.boolean().optional().describe('Treat pattern as a regular expression (default false)'),
    path: z.string().optional().describe('Folder or file to search, relative to the workspace root (default: whole workspace)'),
    case_sensitive: z.boolean().optional().describe('Match case exactly (default false)'),
    max_results: z.number().int().min(1).max(1000).optional().describe(`Most matches to show (default ${DEFAULT_MAX_RESULTS})`),
  })
  .strict();
type Input = z.infer<typeof Input>;

/** A line matcher. Regular expressions run on RE2 (re2js): linear time whatever the pattern, so no input can freeze the app. */
type Matcher = (line: string) => boolean;

function compile(input: Input): Matcher | string {
  if (!input.regex) {
    if (input.case_sensitive) return (line) => line.includes(input.pattern);
    const needle = input.pattern.toLowerCase();
    return (line) => line.toLowerCase().includes(needle);
  }
  try {
    const re = RE2JS.compile(input.pattern, input.case_sensitive ? 0 : RE2JS.CASE_INSENSITIVE);
    return (line) => re.test(line);
  } catch (error) {
    return (
      `Invalid regular expression: ${errorMessage(error)}. The search uses RE2 syntax (linear time): no look-around or back-references. ` +
      'Fix the pattern, or set regex: false to search for plain text.'
    );
  }
}

const clip = (line: string): string => {
  const trimmed = line.trim();
  return trimmed.length > MAX_LINE_SHOWN ? `${trimmed.slice(0, MAX_LINE_SHOWN)}…` : trimmed;
};

/** A file's bytes when it is a regular file inside the workspace of searchable size; null to skip it. */
async function readSearchable(realRoot: string, rel: string): Promise<Buffer | null> {
  try {
    const opened = openInside(realRoot, rel, 'read');
    if (!opened.ok) return null;
    try {
      return opened.file.stat.size > MAX_FILE_BYTES ? null : await readAll(opened.file);
    } finally {
      closeQuietly(opened.file.fd);
    }
  } catch {
    return null;
  }
}

export function createSearchFilesTool(root: string, offLimits: OffLimits = OffLimits.NONE): ToolDefinition {
  const summarize = (v: Input): string => `Search for "${v.pattern}"${v.path ? ` in ${v.path}` : ''}`;
  return defineTool({
    name: 'search_files',
    description:
      'Search file contents in the workspace for text or a regular expression. Honours .gitignore, skips .git and binary files. ' +
      'Results are "path:line: text".',
    input: Input,
    group: 'workspace',
    readOnly: true,
    label: 'Search files',
    summarize,
    describeDryRun: summarize,
    needsApproval: () => false,
    async execute(input, ctx) {
      const matcher = compile(input);
      if (typeof matcher === 'string') return fail('invalid_parameter', matcher);
      const target = confine(root, input.path ?? '.');
      if (!target.ok) return target;
      const { abs, rel } = target.path;
      const limit = input.max_results ?? DEFAULT_MAX_RESULTS;
      return guarded('search', rel, async () => {
        const rootResult = canonicalRoot(root);
        if (!rootResult.ok) return rootResult;
        const stat = await fs.stat(abs);
        const relFromRoot = abs === rootResult.root ? '' : abs.slice(rootResult.root.length + 1);
        const files: AsyncIterable<WalkEntry> | WalkEntry[] = stat.isDirectory()
          ? walk(rootResult.root, relFromRoot, { signal: ctx.signal, skip: offLimits.skipperFor(rootResult.root) })
          : [{ rel: relFromRoot, abs, kind: 'file', depth: 1 }];

        const shown: string[] = [];
        let total = 0;
        let scanned = 0;
        for await (const file of files) {
          if (ctx.signal.aborted) return fail('unknown', 'Search stopped by the user.');
          if (file.kind !== 'file') continue;
          // Opened and checked by identity: only regular files inside the workspace, never a FIFO or device.
          const data = await readSearchable(rootResult.root, file.rel);
          if (!data || looksBinary(data)) continue;
          scanned++;
          const lines = data.toString('utf8').split('\n');
          lines.forEach((line, i) => {
            if (!matcher(line)) return;
            total++;
            if (shown.length < limit) shown.push(`${file.rel}:${i + 1}: ${clip(line)}`);
          });
        }
        const where = rel === '.' ? 'the workspace' : rel;
        if (total === 0) return ok(`No matches for "${input.pattern}" in ${where} (${formatCount(scanned)} files searched).`);
        const more = total > shown.length ? `\n… ${formatCount(total - shown.length)} more matches not shown; narrow the search with path or a more specific pattern.` : '';
        return ok(`${formatCount(total)} ${total === 1 ? 'match' : 'matches'} in ${where}:\n${shown.join('\n')}${more}`);
      });
    },
  });
}
