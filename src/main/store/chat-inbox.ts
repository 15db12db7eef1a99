import { randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, rmSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { UserEdit } from '../../shared/plan-edit';
import { ReviewDecision } from '../../shared/plan-review';
import { writeFileAtomicSync } from '../common/atomic-write';
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
  /**
   * The user answered the question a chat another process writes awaits (an approval, an
   * escalation, Claude's question). The answer is parsed by the writer with its kind's schema,
   * on the same answer path as its own window's answers.
   */
  z.object({ kind: z.literal('answer'), prompt: z.enum(['approval', 'escalation', 'question', 'budget']), requestId: z.string().min(1).max(200), answer: z.unknown() }).strict(),
  /** The user answered the plan proposal (plan first) of a chat another process writes. */
  z.object({ kind: z.literal('plan_review'), planId: z.string().min(1).max(200), version: z.number().int().nonnegative(), decision: ReviewDecision }).strict(),
  /** "Retry now" on a chat another process writes, after its run gave up on the API. */
  z.object({ kind: z.literal('retry_run') }).strict(),
]);
export type InboxRequest = z.infer<typeof InboxRequest>;

const InboxFile = z.object({ from: z.object({ pid: z.number(), holder: z.string() }), at: z.string(), request: InboxRequest });
type InboxFile = z.infer<typeof InboxFile>;

export const INBOX_DIR = 'inbox';

export function inboxDir(chatDir: string): string {
  return join(chatDir, INBOX_DIR);
}

/**
 * The writer's answer to a request that waits for one (Stop): whether it did it, and why not.
 * Written beside the inbox as `replies/<request file name>`, so the sender knows the truth
 * instead of assuming the request was carried out.
 */
export const InboxReply = z
  .object({
    done: z.boolean(),
    reason: z.string().max(1_000).optional(),
    /** The user message an answered plan proposal added (what reviewPlan returns). */
    itemId: z.string().max(200).optional(),
  })
  .strict();
export type InboxReply = z.infer<typeof InboxReply>;

const REPLIES_DIR = 'replies';
/** How often a sender waiting for a reply looks for it. */
const REPLY_POLL_MS = 50;

let sent = 0;

/** Drops a request into a chat's inbox for its writer; returns the request's name (its reply comes under it). */
export function sendToInbox(chatDir: string, from: InboxFile['from'], request: InboxRequest): string {
  const dir = inboxDir(chatDir);
  mkdirSync(dir, { recursive: true });
  // Time first, so names sort in the order sent (a counter orders one sender's requests within a
  // millisecond); a random tail keeps two senders apart.
  const name = `${Date.now().toString().padStart(15, '0')}-${(sent++).toString().padStart(9, '0')}-${process.pid}-${randomBytes(4).toString('hex')}.json`;
  const body: InboxFile = { from, at: new Date().toISOString(), request };
  writeFileAtomicSync(join(dir, name), JSON.stringify(body), { mode: 0o600 });
  return name;
}

/** The writer answers a request (written whole, like requests). A reply that cannot be written is left out: the sender times out and says so. */
export function replyToInbox(chatDir: string, name: string, reply: InboxReply): void {
  try {
    const dir = join(inboxDir(chatDir), REPLIES_DIR);
    mkdirSync(dir, { recursive: true });
    writeFileAtomicSync(join(dir, name), JSON.stringify(reply), { mode: 0o600 });
  } catch {
    // See above.
  }
}

/**
 * Waits for the writer's reply to a request: null when none came within `timeoutMs` (the writer
 * is not running, or too busy to look). The request is withdrawn then, so a writer that looks
 * later does not act on a request the user was told failed.
 */
export async function awaitReply(chatDir: string, name: string, timeoutMs: number): Promise<InboxReply | null> {
  const path = join(inboxDir(chatDir), REPLIES_DIR, name);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const parsed = InboxReply.safeParse(JSON.parse(readRegularFileSync(path).toString('utf8')));
      rmSync(path, { force: true });
      return parsed.success ? parsed.data : { done: false, reason: 'its answer could not be read' };
    } catch {
      // Not there yet.
    }
    if (Date.now() >= deadline) break;
    await new Promise((resolve) => setTimeout(resolve, REPLY_POLL_MS));
  }
  try {
    unlinkSync(join(inboxDir(chatDir), name));
    return null;
  } catch {
    // Taken meanwhile: the writer is at it, and its reply comes in a moment.
  }
  await new Promise((resolve) => setTimeout(resolve, 20 * REPLY_POLL_MS));
  try {
    const parsed = InboxReply.safeParse(JSON.parse(readRegularFileSync(path).toString('utf8')));
    rmSync(path, { force: true });
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export interface TakenRequest {
  request: InboxRequest;
  from: InboxFile['from'];
  /** The request file's name: its reply goes under it (replyToInbox). */
  name: string;
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
    let request: TakenRequest | null = null;
    try {
      // A FIFO planted here is refused without waiting for a writer (regular-file.ts).
      const parsed = InboxFile.safeParse(JSON.parse(readRegularFileSync(path).toString('utf8')));
      if (parsed.success) request = { request: parsed.data.request, from: parsed.data.from, name };
      else warn(`${path}: not a request this Waypoint understands; ignored.`);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') warn(`${path}: could not be read (${(error as Error).message}); ignored.`);
    }
    try {
      // Whoever removes the file owns the request: the writer carries it out, or its sender
      // withdrew it after waiting in vain (awaitReply) and told the user nothing happened.
      unlinkSync(path);
      if (request) taken.push(request);
    } catch {
      // Withdrawn, or taken by a writer before us (a takeover): not ours to carry out.
    }
  }
  return taken;
}
