import { z } from 'zod';
import { fail, ok, type ToolDefinition, type ToolOutcome } from '../tool';
import { canonicalRoot, confine } from './confine';
import { guarded } from './fs-errors';
import { defineTool } from '../define-tool';
import { looksBinary } from './text-sniff';
import { executableNote } from './executable-note';
import { protectedChangeReason } from './protected-paths';
import { formatCount } from './tool-input';
import { unifiedDiff } from './unified-diff';
import { closeQuietly, makeParentFolders, openInside, readAllSync, replaceContent } from './verified-open';

/** The dry run shows a diff for files up to this size (it reads them on the main thread). */
const DRY_RUN_MAX_BYTES = 2 * 1024 * 1024;

const Input = z
  .object({
    path: z.string().min(1).describe('File path relative to the workspace root, e.g. src/app.ts'),
    content: z.string().describe('The complete new content of the file'),
  })
  .strict();
type Input = z.infer<typeof Input>;

/** What is on disk now: a text file, nothing, or something write_file should not replace. */
type Existing =
  | { kind: 'none' }
  | { kind: 'text'; text: string; mode: number }
  | { kind: 'binary'; size: number; mode: number }
  | { kind: 'large'; size: number; mode: number }
  | { kind: 'refused'; message: string };

/** Opened and checked like the write itself (verified-open.ts): a FIFO or a link out is never read. */
function existingText(root: string, given: string): Existing {
  let opened;
  try {
    opened = openInside(root, given, 'read');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'none' };
    throw error;
  }
  if (!opened.ok) return { kind: 'refused', message: opened.error.message };
  try {
    const { mode } = opened.file.stat;
    if (opened.file.stat.size > DRY_RUN_MAX_BYTES) return { kind: 'large', size: opened.file.stat.size, mode };
    const data = readAllSync(opened.file);
    return looksBinary(data) ? { kind: 'binary', size: data.length, mode } : { kind: 'text', text: data.toString('utf8'), mode };
  } finally {
    closeQuietly(opened.file.fd);
  }
}

export function createWriteFileTool(root: string): ToolDefinition {
  /** Validates and confines the call; `then` runs only when the path can take a file. */
  const prepare = async (input: Input, then: (write: { abs: string; rel: string; given: string; content: string }) => Promise<ToolOutcome>): Promise<ToolOutcome> => {
    const target = confine(root, input.path);
    if (!target.ok) return target;
    const { abs, rel } = target.path;
    if (rel === '.') return fail('invalid_parameter', 'write_file needs a file path, not the workspace root.');
    return guarded('write', rel, async () => {
      // An existing target is checked by identity like the write will be: a folder, FIFO, hard link or link out is refused.
      const existing = existingFile(root, input.path);
      if (existing) return existing;
      return then({ abs, rel, given: input.path, content: input.content });
    });
  };
  return defineTool({
    name: 'write_file',
    description:
      'Create a file or replace its whole content (parent folders are created). For small changes to an existing file prefer edit_file.',
    input: Input,
    group: 'workspace',
    label: 'Write a file',
    summarize: (v) => `Write ${v.path} (${formatCount(Buffer.byteLength(v.content))} bytes)`,
    describeDryRun(v) {
      const target = confine(root, v.path);
      if (!target.ok) return `Cannot write ${v.path}: ${target.error.message}`;
      const { rel } = target.path;
      const bytes = formatCount(Buffer.byteLength(v.content));
      try {
        const existing = existingText(root, v.path);
        if (existing.kind === 'none') return `Would create ${rel} (${bytes} bytes)`;
        if (existing.kind === 'refused') return `Cannot write ${rel}: ${existing.message}`;
        const runs = executableNote(rel, existing.mode);
        if (existing.kind === 'binary') return `Would overwrite binary file ${rel} (${formatCount(existing.size)} bytes) with ${bytes} bytes${runs}`;
        if (existing.kind === 'large') return `Would overwrite ${rel} (${formatCount(existing.size)} bytes, too large to show a diff) with ${bytes} bytes${runs}`;
        return `Would overwrite ${rel} (${bytes} bytes)${runs}\n${unifiedDiff(rel, existing.text, v.content)}`;
      } catch {
        return `Would overwrite ${rel} (${bytes} bytes)`;
      }
    },
    needsApproval: (_input, settings) => !settings.autoApproveEdits,
    protectedChange: (v) => protectedChangeReason(root, v.path),
    ruleSubject(v) {
      const target = confine(root, v.path);
      return target.ok ? { kind: 'path', path: target.path.rel } : null;
    },
    // The same checks execute makes, without the write: outside the workspace, a folder, a FIFO, a hard link.
    async precheck(input) {
      const outcome = await prepare(input, async () => ok(''));
      return outcome.ok ? null : outcome.error;
    },
    execute(input) {
      return prepare(input, async ({ abs, rel, given, content }) => {
        const rootResult = canonicalRoot(root);
        if (!rootResult.ok) return rootResult;
        const folders = makeParentFolders(rootResult.root, abs);
        if (!folders.ok) return folders;
        // Opened (created when missing), verified, then written through the descriptor: no path is used twice.
        const opened = openInside(root, given, 'create');
        if (!opened.ok) return opened;
        try {
          const before = opened.file.created ? null : opened.file.stat.size;
          await replaceContent(opened.file, content);
          const bytes = formatCount(Buffer.byteLength(content));
          return ok(before !== null ? `Overwrote ${rel} (${bytes} bytes; was ${formatCount(before)} bytes).` : `Created ${rel} (${bytes} bytes).`);
        } finally {
          closeQuietly(opened.file.fd);
        }
      });
    },
  });
}

/** A refusal for an existing target that cannot be replaced, or null (missing, or a plain file inside). */
function existingFile(root: string, given: string): ToolOutcome | null {
  let opened;
  try {
    opened = openInside(root, given, 'read');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  if (!opened.ok) return opened;
  closeQuietly(opened.file.fd);
  return null;
}
