import { join } from 'node:path';
import type { Plan } from '../../../shared/plan';
import type { AtomicFileWriter } from '../../common/atomic-write';
import { planToMarkdown } from '../plan-markdown';

/**
 * Where a chat's WBS.md lives: in its workspace folder, where the user works and Settings says it
 * is; a chat without a folder keeps it in <dataDir>/sessions/<chatSessionId>/WBS.md.
 */
export function wbsPath(dataDir: string, chatSessionId: string, workspace: string | null = null): string {
  if (workspace) return join(workspace, 'WBS.md');
  // The session id becomes a folder name: keep it to safe characters, never "." or "..".
  const safe = chatSessionId.replace(/[^A-Za-z0-9._-]/g, '_').replace(/^\.+$/, '_') || '_';
  return join(dataDir, 'sessions', safe, 'WBS.md');
}

interface Written {
  plan: Plan;
  planningSteps: number;
  content: string;
}

/**
 * What each writer last wrote to each path. Read-only calls (planning_status) "rewrite" WBS.md
 * with what it already holds: the plan snapshot is the same object (immutable), so the file is
 * current and neither the Markdown nor the temp-file-and-rename (≈1 ms) is redone.
 */
const lastWritten = new WeakMap<AtomicFileWriter, Map<string, Written>>();

/** Rewrites WBS.md (when its content changed); resolves to whether it holds the plan now. */
export async function writeWbs(writer: AtomicFileWriter, path: string, plan: Plan, planningSteps: number): Promise<boolean> {
  let written = lastWritten.get(writer);
  if (!written) lastWritten.set(writer, (written = new Map()));
  const last = written.get(path);
  if (last && last.plan === plan && last.planningSteps === planningSteps) return true;
  const content = planToMarkdown(plan, { planningSteps });
  if (last && last.content === content) {
    written.set(path, { plan, planningSteps, content });
    return true;
  }
  try {
    written.delete(path); // until this write lands, nothing is known to be on disk
    await writer.write(path, content);
    written.set(path, { plan, planningSteps, content });
    return true;
  } catch {
    return false;
  }
}
