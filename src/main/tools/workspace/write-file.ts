import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { fail, ok, type ToolDefinition } from '../../agent/tool';
import { confine } from './confine';
import { guarded } from './fs-errors';
import { toInputSchema } from './json-schema';
import { looksBinary } from './text-sniff';
import { formatCount, parseInput, peek } from './tool-input';
import { unifiedDiff } from './unified-diff';

const Input = z
  .object({
    path: z.string().min(1).describe('File path relative to the workspace root, e.g. src/app.ts'),
    content: z.string().describe('The complete new content of the file'),
  })
  .strict();

/** What is on disk now: a text file, nothing, or something write_file should not replace. */
function existingText(abs: string): { kind: 'none' } | { kind: 'text'; text: string } | { kind: 'binary'; size: number } | { kind: 'dir' } {
  let stat;
  try {
    stat = fs.statSync(abs);
  } catch {
    return { kind: 'none' };
  }
  if (stat.isDirectory()) return { kind: 'dir' };
  const data = fs.readFileSync(abs);
  return looksBinary(data) ? { kind: 'binary', size: data.length } : { kind: 'text', text: data.toString('utf8') };
}

export function createWriteFileTool(root: string): ToolDefinition {
  return {
    name: 'write_file',
    description:
      'Create a file or replace its whole content (parent folders are created). For small changes to an existing file prefer edit_file.',
    inputSchema: toInputSchema(Input),
    group: 'workspace',
    summarize(input) {
      const v = peek(Input, input);
      return v ? `Write ${v.path} (${formatCount(Buffer.byteLength(v.content))} bytes)` : 'Write a file';
    },
    describeDryRun(input) {
      const v = peek(Input, input);
      if (!v) return 'Write a file (invalid input)';
      const target = confine(root, v.path);
      if (!target.ok) return `Cannot write ${v.path}: ${target.error.message}`;
      const { abs, rel } = target.path;
      const bytes = formatCount(Buffer.byteLength(v.content));
      try {
        const existing = existingText(abs);
        if (existing.kind === 'none') return `Would create ${rel} (${bytes} bytes)`;
        if (existing.kind === 'dir') return `Cannot write ${rel}: it is a folder`;
        if (existing.kind === 'binary') return `Would overwrite binary file ${rel} (${formatCount(existing.size)} bytes) with ${bytes} bytes`;
        return `Would overwrite ${rel} (${bytes} bytes)\n${unifiedDiff(rel, existing.text, v.content)}`;
      } catch {
        return `Would overwrite ${rel} (${bytes} bytes)`;
      }
    },
    needsApproval: (_input, settings) => !settings.autoApproveEdits,
    async execute(raw) {
      const parsed = parseInput('write_file', Input, raw);
      if (!parsed.ok) return { ok: false, error: parsed.error };
      const target = confine(root, parsed.value.path);
      if (!target.ok) return target;
      const { abs, rel } = target.path;
      if (rel === '.') return fail('invalid_parameter', 'write_file needs a file path, not the workspace root.');
      return guarded('write', rel, async () => {
        const before = await fsp.stat(abs).catch(() => null);
        if (before?.isDirectory()) return fail('invalid_parameter', `${rel} is a folder; give a file path inside it.`);
        await fsp.mkdir(path.dirname(abs), { recursive: true });
        await fsp.writeFile(abs, parsed.value.content, 'utf8');
        const bytes = formatCount(Buffer.byteLength(parsed.value.content));
        return ok(before ? `Overwrote ${rel} (${bytes} bytes; was ${formatCount(before.size)} bytes).` : `Created ${rel} (${bytes} bytes).`);
      });
    },
  };
}
