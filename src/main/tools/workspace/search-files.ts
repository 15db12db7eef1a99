import fs from 'node:fs/promises';
import { z } from 'zod';
import { fail, ok, type ToolDefinition } from '../../agent/tool';
import { canonicalRoot, confine } from './confine';
import { guarded } from './fs-errors';
import { toInputSchema } from './json-schema';
import { looksBinary } from './text-sniff';
import { errorMessage, formatCount, parseInput, peek } from './tool-input';
import { walk, type WalkEntry } from './walk';

const DEFAULT_MAX_RESULTS = 100;
const MAX_FILE_BYTES = 2 * 1024 * 1024;
const MAX_LINE_SHOWN = 200;

const Input = z
  .object({
    pattern: z.string().min(1).max(1000).describe('Text to find (or a JavaScript regular expression when regex is true)'),
    regex: z.boolean().optional().describe('Treat pattern as a regular expression (default false)'),
    path: z.string().optional().describe('Folder or file to search, relative to the workspace root (default: whole workspace)'),
    case_sensitive: z.boolean().optional().describe('Match case exactly (default false)'),
    max_results: z.number().int().min(1).max(1000).optional().describe(`Most matches to show (default ${DEFAULT_MAX_RESULTS})`),
  })
  .strict();
type Input = z.infer<typeof Input>;

const escapeRegex = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function compile(input: Input): RegExp | string {
  const flags = input.case_sensitive ? '' : 'i';
  try {
    return new RegExp(input.regex ? input.pattern : escapeRegex(input.pattern), flags);
  } catch (error) {
    return `Invalid regular expression: ${errorMessage(error)}. Fix the pattern, or set regex: false to search for plain text.`;
  }
}

const clip = (line: string): string => {
  const trimmed = line.trim();
  return trimmed.length > MAX_LINE_SHOWN ? `${trimmed.slice(0, MAX_LINE_SHOWN)}…` : trimmed;
};

export function createSearchFilesTool(root: string): ToolDefinition {
  const summarize = (input: unknown): string => {
    const v = peek(Input, input);
    return v ? `Search for "${v.pattern}"${v.path ? ` in ${v.path}` : ''}` : 'Search files';
  };
  return {
    name: 'search_files',
    description:
      'Search file contents in the workspace for text or a regular expression. Honours .gitignore, skips .git and binary files. ' +
      'Results are "path:line: text".',
    inputSchema: toInputSchema(Input),
    group: 'workspace',
    summarize,
    describeDryRun: summarize,
    needsApproval: () => false,
    async execute(raw, ctx) {
      const parsed = parseInput('search_files', Input, raw);
      if (!parsed.ok) return { ok: false, error: parsed.error };
      const input = parsed.value;
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
          ? walk(rootResult.root, relFromRoot, { signal: ctx.signal })
          : [{ rel: relFromRoot, abs, kind: 'file', depth: 1 }];

        const shown: string[] = [];
        let total = 0;
        let scanned = 0;
        for await (const file of files) {
          if (ctx.signal.aborted) return fail('unknown', 'Search stopped by the user.');
          if (file.kind !== 'file') continue;
          const data = await fs.readFile(file.abs).catch(() => null);
          if (!data || data.length > MAX_FILE_BYTES || looksBinary(data)) continue;
          scanned++;
          const lines = data.toString('utf8').split('\n');
          lines.forEach((line, i) => {
            if (!matcher.test(line)) return;
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
  };
}
