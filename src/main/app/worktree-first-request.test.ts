import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startTestApp, type TestApp } from '../../../test-support/main/app-test-kit';
import type { TranscriptItem } from '../../shared/transcript';
import { HELD_FULL_TEXT, git, heldCheckoutRepo, readsTheHeldTree, type HeldCheckout } from '../../../test-support/main/held-checkout';

/**
 * Issue 27, third round: a worktree chat's first request goes out while `git worktree add` still
 * writes the tree, held half-written by the repository's own post-checkout hook until the test
 * releases it (test-support/main/held-checkout.ts): nothing depends on timing.
 */
const SETTINGS = { worktrees: true, autoApproveEdits: true, autoApproveCommands: true, retryDelayMs: 0 };

const FULL = HELD_FULL_TEXT;

interface SentRequest {
  system: Array<{ text: string }> | string;
  tools?: Array<{ name: string }>;
  messages: Array<{ role: string; content: unknown }>;
}
const systemOf = (r: SentRequest) => (typeof r.system === 'string' ? r.system : r.system.map((b) => b.text).join('\n'));

function toolResultOf(request: SentRequest): { text: string; isError: boolean } {
  const last = request.messages[request.messages.length - 1]!;
  const block = (last.content as Array<{ type: string; content?: unknown; is_error?: boolean }>).find((b) => b.type === 'tool_result')!;
  return { text: typeof block.content === 'string' ? block.content : JSON.stringify(block.content), isError: block.is_error === true };
}

/** The app a test opened, closed after it whatever happened. */
let opened: TestApp | undefined;
afterEach(async () => {
  await opened?.close();
  opened = undefined;
});

const cardsOf = (items: readonly TranscriptItem[]) => items.filter((i) => i.kind === 'tool_call');

/** Until the hook has made the tree half-written and holds the checkout there. */
async function checkoutHeld(held: HeldCheckout): Promise<void> {
  await vi.waitFor(() => expect(existsSync(held.marker)).toBe(true), { timeout: 30_000, interval: 20 });
}

/**
 * The app with "Work in a git worktree" on, in a repository whose checkouts are held, and a new
 * chat: its worktree (made ahead by New chat) is held half-written when this returns.
 */
async function newChatWithHeldCheckout(): Promise<{ app: TestApp; held: HeldCheckout; id: string }> {
  const started = await startTestApp(readsTheHeldTree, { settings: SETTINGS });
  opened = started;
  const held = heldCheckoutRepo(started.workspace, started.dir);
  const { id } = await started.call('newSession', {});
  await checkoutHeld(held);
  return { app: started, held, id };
}

/** Until the chat's read_file card says it waits for the worktree (the call is held at the gate). */
async function toolCallWaiting(app: TestApp, from: number): Promise<void> {
  await app.waitFor((e) => e.type === 'transcript_item' && e.item.kind === 'tool_call' && /Preparing worktree/.test(e.item.result ?? ''), from);
}

describe('a worktree chat whose checkout is still running', { timeout: 90_000 }, () => {
  it('sends its first request at once with the commit\'s instructions and skills; its tool call waits, says so, then sees the whole tree', async () => {
    const { app, held, id } = await newChatWithHeldCheckout();
    const from = app.events.length;
    await app.call('sendMessage', { sessionId: id, text: 'Read the file' });
    // The first request reached Claude while the checkout is still held.
    await vi.waitFor(() => expect(app.api.requests.length).toBeGreaterThanOrEqual(1), { timeout: 30_000, interval: 20 });
    const first = app.api.requests[0]!.body as SentRequest;
    const system = systemOf(first);
    expect(system).toContain('Commit rule: tabs.\nStyle from the commit.');
    expect(system).not.toContain('HALF-WRITTEN');
    expect(system).toContain('pdf-forms');
    expect((first.tools ?? []).map((t) => t.name)).toContain('load_skill');
    expect(system).toContain(join(app.dataDir, 'worktrees', id));
    // Its tool call waits for the rest of the checkout, and its card says so.
    await toolCallWaiting(app, from);
    expect(app.api.requests).toHaveLength(1);
    await held.release('go');
    await app.idle(id, from);
    const second = app.api.requests[1]!.body as SentRequest;
    expect(toolResultOf(second)).toEqual({ text: expect.stringContaining(FULL) as string, isError: false });
    const { session, transcript } = await app.call('getSession', { sessionId: id });
    expect(session.workspace).toBe(join(app.dataDir, 'worktrees', id));
    expect(cardsOf(transcript)).toMatchObject([{ name: 'read_file', status: 'done' }]);
    // Changes waited for the same tree: nothing changed in it.
    expect((await app.call('getChanges', { sessionId: id })).files).toEqual([]);
  });

  it('a checkout that fails after the request went out: the waiting call gets a clear error, the chat says why once, nothing is left behind', async () => {
    const { app, held, id } = await newChatWithHeldCheckout();
    const from = app.events.length;
    await app.call('sendMessage', { sessionId: id, text: 'Read the file' });
    await toolCallWaiting(app, from);
    await held.release('fail');
    await app.idle(id, from);
    const second = app.api.requests[1]!.body as SentRequest;
    const result = toolResultOf(second);
    expect(result.isError).toBe(true);
    expect(result.text).toMatch(/git could not make this chat's worktree .*nothing was left behind\. This chat now works in .* itself/);
    const { session, transcript } = await app.call('getSession', { sessionId: id });
    expect(session.worktree).toBeUndefined();
    expect(session.workspace).toBe(app.workspace);
    expect(transcript.filter((i) => i.kind === 'notice' && /could not make this chat's worktree/.test(i.text))).toHaveLength(1);
    expect(cardsOf(transcript)).toMatchObject([{ name: 'read_file', status: 'error' }]);
    // No half-made worktree: no folder, no branch, nothing in git's list.
    expect(existsSync(join(app.dataDir, 'worktrees', id))).toBe(false);
    expect(git(app.workspace, 'worktree', 'list').trim().split('\n')).toHaveLength(1);
    expect(git(app.workspace, 'branch', '--list', 'waypoint/*')).toBe('');
  });

  it('a worktree made ahead whose checkout failed before the first message: that message is refused as before, and sending again makes one afresh', async () => {
    const { app, held, id } = await newChatWithHeldCheckout();
    await held.release('fail');
    // The checkout has ended (failed) before the message: the folder and branch going is not
    // enough to know that, as the app still hears git's last exit after them.
    await app.services.worktreesIdle();
    // The failed add takes its folder and branch along.
    expect(git(app.workspace, 'branch', '--list', 'waypoint/*')).toBe('');
    expect(existsSync(join(app.dataDir, 'worktrees', id))).toBe(false);
    await expect(app.call('sendMessage', { sessionId: id, text: 'Read the file' })).rejects.toThrow(/could not make this chat's worktree .*nothing was left behind\. Send again/);
    expect((await app.call('getSession', { sessionId: id })).transcript).toEqual([]);
    rmSync(held.marker);
    const from = app.events.length;
    await app.call('sendMessage', { sessionId: id, text: 'Read the file' });
    await checkoutHeld(held);
    await held.release('go');
    await app.idle(id, from);
    expect((await app.call('getSession', { sessionId: id })).session.worktree?.path).toBe(join(app.dataDir, 'worktrees', id));
    expect(toolResultOf(app.api.requests.at(-1)!.body as SentRequest).text).toContain(FULL);
  });

  it('quitting while the worktree made ahead for a new chat is still checked out waits for it; the next start uses it whole', async () => {
    const { app, held, id } = await newChatWithHeldCheckout();
    let quit = false;
    const restarting = app.restart().then(() => {
      quit = true;
    });
    // The hook holds the checkout until the release below, so a quit that waits cannot be over.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(quit).toBe(false);
    await held.release('go');
    await restarting;
    const folder = join(app.dataDir, 'worktrees', id);
    expect(readFileSync(join(folder, 'full.txt'), 'utf8')).toBe(FULL);
    expect(git(folder, 'status', '--porcelain')).toBe('');
    const from = app.events.length;
    await app.call('sendMessage', { sessionId: id, text: 'Read the file' });
    await app.idle(id, from);
    expect((await app.call('getSession', { sessionId: id })).session.worktree?.path).toBe(folder);
    expect(toolResultOf(app.api.requests.at(-1)!.body as SentRequest).text).toContain(FULL);
  });
});
