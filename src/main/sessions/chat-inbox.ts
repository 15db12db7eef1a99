import { randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { UserEdit } from '../../shared/plan-edit';
import { readRegularFileSync } from '../common/regular-file';

/**
 * What a process that follows a chat asks of the process that writes it (one writer per log):
 * the writer carries the request out, and its log tells everyone the result. Requests are files
 * in `sessions/<id>/inbox/`, written whole (temp file, rename) and taken in the order sent.
 *
 * A new kind of request joins `InboxRequest` and gets a handler where the processes are put
 * together (app/forwarded-requests.ts). A user's plan edit is applied by the writer with the user
 * as the cause, and the agent hears of it in its next tool result (cli/mcp/user-edit-notes.ts for
 * an MCP client, the loop's edit notes for a headless run).
 */
export const InboxRequest = z.discriminatedUnion('kind', [
  /** The user pressed Stop on a run another process is doing. */
  z.object({ kind: z.literal('stop') }).strict(),
  /** The user edited the plan of a chat another process writes (a headless run, an MCP client's chat). */
  z.object({ kind: z.literal('plan_edit'), planId: z.string().min(1).max(200), version: z.number().int().nonnegative(), edit: UserEdit }).strict(),
]);
export type InboxRequest = z.infer<typeof InboxRequest>;

const InboxFile = z.object({ from: z.object({ pid: z.number(), holder: z.string() }), at: z.string(), request: InboxRequest });
type InboxFile = z.infer<typeof InboxFile>;

export const INBOX_DIR = 'inbox';

export function inboxDir(chatDir: string): string {
  return join(chatDir, INBOX_DIR);
}

let sent = 0;

/** Drops a request into a chat's inbox for its writer. */
export function sendToInbox(chatDir: string, from: InboxFile['from'], request: InboxRequest): void {
  const dir = inboxDir(chatDir);
  mkdirSync(dir, { recursive: true });
  // Time first, so names sort in the order sent (a counter orders one sender's requests within a
  // millisecond); a random tail keeps two senders apart.
  const name = `${Date.now().toString().padStart(15, '0')}-${(sent++).toString().padStart(9, '0')}-${process.pid}-${randomBytes(4).toString('hex')}.json`;
  const temp = join(dir, `.${name}.tmp`);
  const body: InboxFile = { from, at: new Date().toISOString(), request };
  writeFileSync(temp, JSON.stringify(body), { mode: 0o600 });
  renameSync(temp, join(dir, name));
}

export interface TakenRequest {
  request: InboxRequest;
  from: InboxFile['from'];
}

/**
 * Takes every waiting request, oldest first, and removes its file. A file that is not a valid
 * request is removed with a warning: it can never become one.
 */
export function takeFromInbox(chatDir: string, warn: (message: string) => void): TakenRequest[] {
  const dir = inboxDir(chatDir);
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => n.endsWith('.json') && !n.startsWith('.'));
  } catch {
    return [];
  }
  const taken: TakenRequest[] = [];
  for (const name of names.sort()) {
    const path = join(dir, name);
    try {
      // A FIFO planted here is refused without waiting for a writer (regular-file.ts).
      const parsed = InboxFile.safeParse(JSON.parse(readRegularFileSync(path).toString('utf8')));
      if (parsed.success) taken.push({ request: parsed.data.request, from: parsed.data.from });
      else warn(`${path}: not a request this Waypoint understands; ignored.`);
    } catch (error) {
      warn(`${path}: could not be read (${(error as Error).message}); ignored.`);
    }
    try {
      unlinkSync(path);
    } catch {
      // Taken by a writer before us (a takeover): it acts on it.
    }
  }
  return taken;
}
