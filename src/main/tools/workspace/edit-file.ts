import { z } from 'zod';
import { fail, ok, type ToolDefinition, type ToolOutcome } from '../tool';
import { confine } from './confine';
import { lineAt, nearMissHint, occurrences } from './edit-match';
import { executableNote } from './executable-note';
import { guarded } from './fs-errors';
import { protectedChangeReason } from './protected-paths';
import { defineTool } from '../define-tool';
import { looksBinary } from './text-sniff';
import { unifiedDiff } from './unified-diff';
import { closeQuietly, openInside, readAll, readAllSync, replaceContent, type OpenedFile } from './verified-open';

/** Files above this are not edited (nor diffed in a dry run). */
const EDIT_MAX_BYTES = 10 * 1024 * 1024;

const Input = z
  .object({
    path: z.string().min(1).describe('File path relative to the workspace root, e.g. src/app.ts'),
    old_text: z.string().min(1).describe('Exact text to replace; must occur exactly once in the file (include surrounding lines to make it unique)'),
    new_text: z.string().describe('Replacement text'),
  })
  .strict()
  .refine((v) => v.old_text !== v.new_text, { message: 'new_text is identical to old_text; nothing would change', path: ['new_text'] });
type Input = z.infer<typeof Input>;

type Planned = { ok: true; before: string; after: string; line: number } | { ok: false; outcome: ToolOutcome };

/** Work out the edit without writing: shared by execute and describeDryRun. */
function planEdit(rel: string, data: Buffer, input: Input): Planned {
  if (looksBinary(data)) return { ok: false, outcome: fail('invalid_parameter', `${rel} is a binary file; edit_file only edits text.`) };
  const before = data.toString('utf8');
  // A CRLF file edited with LF text from the model: match in the file's own line endings.
  const crlf = before.includes('\r\n') && !input.old_text.includes('\r\n');
  const oldText = crlf ? input.old_text.replace(/\n/g, '\r\n') : input.old_text;
  const newText = crlf ? input.new_text.replace(/\r?\n/g, '\r\n') : input.new_text;
  const found = occurrences(before, oldText);
  if (found.length === 0) {
    return { ok: false, outcome: fail('not_found', `old_text was not found in ${rel}.${nearMissHint(before.replace(/\r\n/g, '\n'), input.old_text)}`) };
  }
  if (found.length > 1) {
    const lines = found.slice(0, 20).map((i) => lineAt(before, i)).join(', ');
    return {
      ok: false,
      outcome: fail('conflict', `old_text occurs ${found.length} times in ${rel} (lines ${lines}); include more surrounding lines so it matches exactly once.`),
    };
  }
  const at = found[0] ?? 0;
  const after = before.slice(0, at) + newText + before.slice(at + oldText.length);
  return { ok: true, before, after, line: lineAt(before, at) };
}

export function createEditFileTool(root: string): ToolDefinition {
  /** Validates, confines, opens by identity (verified-open.ts), reads and plans the edit; `then` runs only when it can apply. */
  const prepare = async (
    input: Input,
    mode: 'read' | 'update',
    then: (edit: { file: OpenedFile; rel: string; planned: Extract<Planned, { ok: true }> }) => Promise<ToolOutcome>,
  ): Promise<ToolOutcome> => {
    const target = confine(root, input.path);
    if (!target.ok) return target;
    const { rel } = target.path;
    return guarded('edit', rel, async () => {
      const opened = openInside(root, input.path, mode);
      if (!opened.ok) return opened;
      try {
        if (opened.file.stat.size > EDIT_MAX_BYTES) return fail('invalid_parameter', `${rel} is ${opened.file.stat.size} bytes, too large to edit; use write_file or a command.`);
        const planned = planEdit(rel, await readAll(opened.file), input);
        return planned.ok ? await then({ file: opened.file, rel, planned }) : planned.outcome;
      } finally {
        closeQuietly(opened.file.fd);
      }
    });
  };
  return defineTool({
    name: 'edit_file',
    description:
      'Replace one exact occurrence of old_text with new_text in a file. old_text must match the file exactly (whitespace included) and be unique.',
    input: Input,
    group: 'workspace',
    label: 'Edit a file',
    summarize: (v) => `Edit ${v.path}`,
    describeDryRun(v) {
      const target = confine(root, v.path);
      if (!target.ok) return `Cannot edit ${v.path}: ${target.error.message}`;
      const { rel } = target.path;
      try {
        // Opened and checked like the edit itself: a FIFO or a link out is never read (verified-open.ts).
        const opened = openInside(root, v.path, 'read');
        if (!opened.ok) return `Cannot edit ${rel}: ${opened.error.message}`;
        try {
          if (opened.file.stat.size > EDIT_MAX_BYTES) return `Cannot edit ${rel}: it is ${opened.file.stat.size} bytes, too large to edit.`;
          const planned = planEdit(rel, readAllSync(opened.file), v);
          if (!planned.ok) return `Cannot edit ${rel}: ${planned.outcome.ok ? '' : planned.outcome.error.message}`;
          const runs = executableNote(rel, opened.file.stat.mode);
          return runs ? `Would edit ${rel}${runs}\n${unifiedDiff(rel, planned.before, planned.after)}` : unifiedDiff(rel, planned.before, planned.after);
        } finally {
          closeQuietly(opened.file.fd);
        }
      } catch {
        return `Cannot edit ${rel}: it cannot be read`;
      }
    },
    needsApproval: (_input, settings) => !settings.autoApproveEdits,
    protectedChange: (v) => protectedChangeReason(root, v.path),
    ruleSubject(v) {
      const target = confine(root, v.path);
      return target.ok ? { kind: 'path', path: target.path.rel } : null;
    },
    // The same checks execute makes, without the write: old text missing or not unique, no file, not a plain file inside.
    async precheck(input) {
      const outcome = await prepare(input, 'read', async () => ok(''));
      return outcome.ok ? null : outcome.error;
    },
    execute(input) {
      return prepare(input, 'update', async ({ file, rel, planned }) => {
        await replaceContent(file, planned.after);
        return ok(`Edited ${rel} at line ${planned.line}.\n${unifiedDiff(rel, planned.before, planned.after, 4000)}`);
      });
    },
  });
}
