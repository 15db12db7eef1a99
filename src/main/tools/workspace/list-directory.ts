import fs from 'node:fs/promises';
import { z } from 'zod';
import { fail, ok, type ToolDefinition } from '../tool';
import { canonicalRoot, confine } from './confine';
import { guarded } from './fs-errors';
import { defineTool } from '../define-tool';
import { formatCount } from './tool-input';
import { OffLimits } from './off-limits';
import { walk } from './walk';

export const LIST_MAX_ENTRIES = 500;

const Input = z
  .object({
    path: z.string().optional().describe('Folder relative to the workspace root; omit for the root'),
    depth: z.number().int().min(1).max(10).optional().describe('How many levels to show (default 2, max 10)'),
  })
  .strict();

export function createListDirectoryTool(root: string, offLimits: OffLimits = OffLimits.NONE): ToolDefinition {
  const summarize = (v: z.output<typeof Input>): string => `List ${v.path || 'workspace root'}`;
  return defineTool({
    name: 'list_directory',
    description:
      'List a folder of the workspace as a compact tree (folders end with /, symlinks with @). Honours .gitignore and skips .git. ' +
      `At most ${LIST_MAX_ENTRIES} entries.`,
    input: Input,
    group: 'workspace',
    readOnly: true,
    label: 'List workspace root',
    summarize,
    describeDryRun: summarize,
    needsApproval: () => false,
    async execute(input, ctx) {
      const target = confine(root, input.path ?? '.');
      if (!target.ok) return target;
      const { abs, rel } = target.path;
      const depth = input.depth ?? 2;
      return guarded('list', rel, async () => {
        const stat = await fs.stat(abs);
        if (!stat.isDirectory()) return fail('invalid_parameter', `${rel} is a file, not a folder. Use read_file to read it.`);
        const rootResult = canonicalRoot(root);
        if (!rootResult.ok) return rootResult;
        const startRel = rel === '.' ? '' : rel;
        // Walk from the canonical folder, relative to the canonical root.
        const relFromRoot = abs === rootResult.root ? '' : abs.slice(rootResult.root.length + 1);
        const lines: string[] = [];
        let hidden = 0;
        for await (const entry of walk(rootResult.root, relFromRoot, { maxDepth: depth, signal: ctx.signal, skip: offLimits.skipperFor(rootResult.root) })) {
          if (lines.length >= LIST_MAX_ENTRIES) {
            hidden++;
            continue;
          }
          const name = entry.rel.split('/').pop() ?? entry.rel;
          const mark = entry.kind === 'dir' ? '/' : entry.kind === 'symlink' ? '@' : '';
          lines.push(`${'  '.repeat(entry.depth - 1)}${name}${mark}`);
        }
        const title = startRel === '' ? 'Workspace root' : `${startRel}/`;
        if (lines.length === 0) return ok(`${title}: (empty folder)`);
        const more = hidden > 0 ? `\n… ${formatCount(hidden)} more entries not shown; list a subfolder or lower depth.` : '';
        return ok(`${title} (depth ${depth}):\n${lines.join('\n')}${more}`);
      });
    },
  });
}
