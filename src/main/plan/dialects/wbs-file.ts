import { join } from 'node:path';
import type { Plan } from '../../../shared/plan';
import type { AtomicFileWriter } from '../atomic-write';
import { planToMarkdown } from '../plan-markdown';

/** Where a chat's WBS.md lives: <dataDir>/sessions/<chatSessionId>/WBS.md. */
export function wbsPath(dataDir: string, chatSessionId: string): string {
  // The session id becomes a folder name: keep it to safe characters, never "." or "..".
  const safe = chatSessionId.replace(/[^A-Za-z0-9._-]/g, '_').replace(/^\.+$/, '_') || '_';
  return join(dataDir, 'sessions', safe, 'WBS.md');
}

/** Rewrites WBS.md; resolves to whether it worked, so the tool result can say so. */
export async function writeWbs(writer: AtomicFileWriter, path: string, plan: Plan, planningSteps: number): Promise<boolean> {
  try {
    await writer.write(path, planToMarkdown(plan, { planningSteps }));
    return true;
  } catch {
    return false;
  }
}
