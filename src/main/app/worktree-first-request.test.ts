import { execFileSync } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startTestApp, type TestApp } from '../../../test-support/main/app-test-kit';
import type { Scenario } from '../../../test-support/scripted-api/scenario';
import type { TranscriptItem } from '../../shared/transcript';
import { HELD_FULL_TEXT, heldCheckoutRepo } from '../../../test-support/main/held-checkout';

/**
 * Issue 27, third round: a worktree chat's first request goes out while `git worktree add` still
 * writes the tree, held half-written by the repository's own post-checkout hook until the test
 * releases it (test-support/main/held-checkout.ts): nothing depends on timing.
 */
const ENV = { ...process.env, GIT_AUTHOR_NAME: 'T', GIT_AUTHOR_EMAIL: 't@example.com', GIT_COMMITTER_NAME: 'T', GIT_COMMITTER_EMAIL: 't@example.com' };
const git = (cwd: string, ...args: string[]): string => execFileSync('git', args, { cwd, env: ENV, encoding: 'utf8' });
const SETTINGS = { worktrees: true, autoApproveEdits: true, autoApproveCommands: true, retryDelayMs: 0 };

const FULL = HELD_FULL_TEXT;
const readsTheTree: Scenario = {
  name: 'reads-the-tree',
  description: 'Reads full.txt in its first reply; then says done.',
  onExhausted: 'echo',
  turns: [
    { kind: 'tool_use', calls: [{ name: 'read_file', input: { path: 'full.txt' } }] },
    { kind: 'text', text: 'Done.' },
  ],
};

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

let app: TestApp | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

const cardsOf = (items: readonly TranscriptItem[]) => items.filter((i) => i.kind === 'tool_call');

describe('a worktree chat whose checkout is still running', { timeout: 90_000 }, () => {
  it('sends its first request at once with the commit\'s instructions and skills; its tool call waits, says so, then sees the whole tree', async () => {
    app = await startTestApp(readsTheTree, { settings: SETTINGS });
    const held = heldCheckoutRepo(app.workspace, app.dir);
    const { id } = await app.call('newSession', {});
    // The checkout is under way and the tree on disk is half-written (the hook holds it there).
    await vi.waitFor(() => expect(existsSync(held.marker)).toBe(true), { timeout: 30_000, interval: 20 });
    const from = app.events.length;
    await app.call('sendMessage', { sessionId: id, text: 'Read the file' });
    // The first request reached Claude while the checkout is still held.
    await vi.waitFor(() => expect(app!.api.requests.length).toBeGreaterThanOrEqual(1), { timeout: 30_000, interval: 20 });
    const first = app.api.requests[0]!.body as SentRequest;
    const system = systemOf(first);
    expect(system).toContain('Commit rule: tabs.\nStyle from the commit.');
    expect(system).not.toContain('HALF-WRITTEN');
    expect(system).toContain('pdf-forms');
    expect((first.tools ?? []).map((t) => t.name)).toContain('load_skill');
    expect(system).toContain(join(app.dataDir, 'worktrees', id));
    // Its tool call waits for the rest of the checkout, and its card says so.
    await app.waitFor((e) => e.type === 'transcript_item' && e.item.kind === 'tool_call' && /Preparing worktree/.test(e.item.result ?? ''), from);
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
    app = await startTestApp(readsTheTree, { settings: SETTINGS });
    const held = heldCheckoutRepo(app.workspace, app.dir);
    const { id } = await app.call('newSession', {});
    await vi.waitFor(() => expect(existsSync(held.marker)).toBe(true), { timeout: 30_000, interval: 20 });
    const from = app.events.length;
    await app.call('sendMessage', { sessionId: id, text: 'Read the file' });
    await app.waitFor((e) => e.type === 'transcript_item' && e.item.kind === 'tool_call' && /Preparing worktree/.test(e.item.result ?? ''), from);
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
    app = await startTestApp(readsTheTree, { settings: SETTINGS });
    const held = heldCheckoutRepo(app.workspace, app.dir);
    const { id } = await app.call('newSession', {});
    await vi.waitFor(() => expect(existsSync(held.marker)).toBe(true), { timeout: 30_000, interval: 20 });
    await held.release('fail');
    // The failed add takes its folder and branch along.
    await vi.waitFor(() => expect(git(app!.workspace, 'branch', '--list', 'waypoint/*')).toBe(''), { timeout: 30_000, interval: 50 });
    await vi.waitFor(() => expect(existsSync(join(app!.dataDir, 'worktrees', id))).toBe(false), { timeout: 30_000, interval: 50 });
    await expect(app.call('sendMessage', { sessionId: id, text: 'Read the file' })).rejects.toThrow(/could not make this chat's worktree .*nothing was left behind\. Send again/);
    expect((await app.call('getSession', { sessionId: id })).transcript).toEqual([]);
    rmSync(held.marker);
    const from = app.events.length;
    await app.call('sendMessage', { sessionId: id, text: 'Read the file' });
    await vi.waitFor(() => expect(existsSync(held.marker)).toBe(true), { timeout: 30_000, interval: 20 });
    await held.release('go');
    await app.idle(id, from);
    expect((await app.call('getSession', { sessionId: id })).session.worktree?.path).toBe(join(app.dataDir, 'worktrees', id));
    expect(toolResultOf(app.api.requests.at(-1)!.body as SentRequest).text).toContain(FULL);
  });
});
