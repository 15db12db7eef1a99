import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Scenario } from '../../../../test-support/scripted-api/scenario';
import { closeAll, messagesOf, startChat, testTool } from '../../../../test-support/main/chat-test-setup';
import type { EventOf } from '../../../shared/contract';
import type { ApprovalRule } from '../../../shared/approval-rules';
import type { Settings } from '../../../shared/settings';
import type { ToolCallItem } from '../../../shared/transcript';
import { ok, type ToolDefinition } from '../../tools/tool';
import { createWorkspaceTools } from '../../tools/workspace/index';

// Scoped approvals through the whole loop: real SDK, scripted server, real files and commands.

let ws: string;
beforeEach(async () => {
  ws = await mkdtemp(join(tmpdir(), 'waypoint-scopes-'));
  await writeFile(join(ws, 'a.txt'), 'one\n');
  await writeFile(join(ws, 'b.txt'), 'two\n');
});
afterEach(async () => {
  await closeAll();
  await rm(ws, { recursive: true, force: true });
});

const run = (command: string, id?: string) => ({ kind: 'tool_use' as const, calls: [{ name: 'run_command', input: { command }, ...(id ? { id } : {}) }] });
const said = (text: string) => ({ kind: 'text' as const, text });

async function start(scenario: Scenario, opts: { settings?: Partial<Settings>; extra?: ToolDefinition[] } = {}) {
  const chat = await startChat(scenario, { tools: [...createWorkspaceTools(ws), ...(opts.extra ?? [])], settings: opts.settings });
  const requests = () => chat.recorder.ofType('approval_requested');
  const nextRequest = (after: number) =>
    chat.recorder.waitFor((e) => e.type === 'approval_requested', 5_000, after) as Promise<EventOf<'approval_requested'>>;
  const turn = async (sessionId: string, text: string) => {
    const mark = chat.recorder.events.length;
    chat.service.sendMessage(sessionId, text);
    return mark;
  };
  const idle = (sessionId: string, mark: number) => chat.recorder.idle(sessionId, mark);
  const cards = (sessionId: string) => chat.chats.getSession(sessionId).transcript.filter((i): i is ToolCallItem => i.kind === 'tool_call');
  return { ...chat, requests, nextRequest, turn, idle, cards };
}

describe('Approve for this chat', () => {
  it('covers that exact command line in this chat only (whitespace-normalised, never with more arguments), and changes no setting', async () => {
    const c = await start({
      name: 'scoped-command',
      turns: [run('echo scoped'), said('Ran it.'), run('echo    scoped'), run('echo scoped --more'), said('More.'), run('echo scoped'), said('Other chat.')],
    });
    const a = c.session.id;
    let mark = await c.turn(a, 'run it');
    const first = await c.nextRequest(mark);
    expect(first.request.scope).toEqual({ tool: 'run_command', pattern: 'echo scoped' });
    expect(c.service.answerApproval(a, first.request.id, 'approve_chat')).toEqual({ accepted: true });
    await c.idle(a, mark);
    expect(c.chats.getSession(a).session.approvalRules).toEqual([
      expect.objectContaining({ tool: 'run_command', pattern: 'echo scoped', effect: 'allow' }),
    ]);

    // The same line with other spacing runs unasked; one more argument asks again.
    mark = await c.turn(a, 'again');
    const more = await c.nextRequest(mark);
    expect(more.request.summary).toBe('Run `echo scoped --more`');
    expect(c.requests()).toHaveLength(2);
    c.service.answerApproval(a, more.request.id, 'deny');
    await c.idle(a, mark);
    expect(c.cards(a).map((card) => card.status)).toEqual(['done', 'done', 'denied']);

    // Another chat never sees the rule.
    const b = c.chats.newSession().id;
    mark = await c.turn(b, 'run it here');
    const other = await c.nextRequest(mark);
    expect(other.request).toMatchObject({ sessionId: b, summary: 'Run `echo scoped`' });
    c.service.answerApproval(b, other.request.id, 'approve');
    await c.idle(b, mark);
    expect(c.chats.getSession(b).session.approvalRules).toBeUndefined();
    expect(c.settings.get()).toMatchObject({ approvalRules: [], autoApproveCommands: false, autoApproveEdits: false });
  });

  it('for an MCP tool covers that tool of that server, not its other tools', async () => {
    const calls: string[] = [];
    const mcp = (tool: string): ToolDefinition => ({
      ...testTool(`files__${tool}`, async (input) => (calls.push(`${tool} ${JSON.stringify(input)}`), ok('ok'))),
      group: 'mcp',
      server: 'files',
      serverTool: tool,
      needsApproval: () => true,
    });
    const call = (name: string, q: string) => ({ kind: 'tool_use' as const, calls: [{ name, input: { q } }] });
    const c = await start(
      { name: 'mcp', turns: [call('files__write', '1'), call('files__write', '2'), call('files__delete', '3'), said('Done.')] },
      { extra: [mcp('write'), mcp('delete')] },
    );
    const id = c.session.id;
    const mark = await c.turn(id, 'go');
    const first = await c.nextRequest(mark);
    expect(first.request.scope).toEqual({ tool: 'write', server: 'files', pattern: '*' });
    c.service.answerApproval(id, first.request.id, 'approve_chat');
    const second = await c.nextRequest(c.recorder.events.length);
    expect(second.request.toolName).toBe('files__delete');
    c.service.answerApproval(id, second.request.id, 'approve');
    await c.idle(id, mark);
    expect(calls).toEqual(['write {"q":"1"}', 'write {"q":"2"}', 'delete {"q":"3"}']);
    expect(c.requests()).toHaveLength(2);
  });

  it('a command with shell operators can only be approved once', async () => {
    const c = await start({ name: 'chained', turns: [run('echo a; echo b'), said('Ran.')] });
    const id = c.session.id;
    const mark = await c.turn(id, 'go');
    const { request } = await c.nextRequest(mark);
    expect(request.scope).toBeNull();
    expect(() => c.service.answerApproval(id, request.id, 'approve_chat')).toThrow(/can only be approved once/);
    expect(() => c.service.answerApproval(id, request.id, 'approve_always')).toThrow(/can only be approved once/);
    expect(c.chats.getSession(id).pendingApproval?.id).toBe(request.id);
    c.service.answerApproval(id, request.id, 'approve');
    await c.idle(id, mark);
    expect(c.chats.getSession(id).session.approvalRules).toBeUndefined();
  });
});

describe('Always approve', () => {
  it('saves a rule for every chat that covers the file tool anywhere in the workspace, and never the auto-approve switches', async () => {
    const edit = (path: string, from: string, to: string) => ({ kind: 'tool_use' as const, calls: [{ name: 'edit_file', input: { path, old_text: from, new_text: to } }] });
    const c = await start({
      name: 'always',
      turns: [edit('a.txt', 'one', 'ONE'), said('Edited a.'), edit('b.txt', 'two', 'TWO'), said('Edited b.'), { kind: 'tool_use', calls: [{ name: 'write_file', input: { path: 'c.txt', content: 'three\n' } }] }, said('Wrote c.')],
    });
    const a = c.session.id;
    let mark = await c.turn(a, 'edit a');
    const { request } = await c.nextRequest(mark);
    expect(request.scope).toEqual({ tool: 'edit_file', pattern: '**' });
    c.service.answerApproval(a, request.id, 'approve_always');
    await c.idle(a, mark);
    expect(c.settings.get().approvalRules).toEqual([expect.objectContaining({ tool: 'edit_file', pattern: '**', effect: 'allow' })]);
    expect(c.settings.get()).toMatchObject({ autoApproveEdits: false, autoApproveCommands: false });
    expect(c.chats.getSession(a).session.approvalRules).toBeUndefined();

    // Another chat: edit_file of another path runs unasked; write_file still asks.
    const b = c.chats.newSession().id;
    mark = await c.turn(b, 'edit b');
    await c.idle(b, mark);
    expect(await readFile(join(ws, 'b.txt'), 'utf8')).toBe('TWO\n');
    mark = await c.turn(b, 'write c');
    const write = await c.nextRequest(mark);
    expect(write.request.toolName).toBe('write_file');
    c.service.answerApproval(b, write.request.id, 'deny');
    await c.idle(b, mark);
    expect(c.requests()).toHaveLength(2);
  });
});

describe('deny rules', () => {
  it('"Never allow" refuses without asking, with an is_error result that says why', async () => {
    const rule: ApprovalRule = { id: 'never', tool: 'run_command', pattern: 'rm -rf build', effect: 'deny', createdAt: '2025-01-01T00:00:00.000Z' };
    const allow: ApprovalRule = { ...rule, id: 'allow', effect: 'allow' };
    const c = await start({ name: 'never', turns: [run('rm  -rf build', 'toolu_rm'), said('Could not.')] }, { settings: { approvalRules: [allow, rule], autoApproveCommands: true } });
    const id = c.session.id;
    const mark = await c.turn(id, 'clean');
    await c.idle(id, mark);
    expect(c.requests()).toEqual([]);
    const result = (messagesOf(c.server, 1)[2]!.content as Array<{ content: string; is_error: boolean }>)[0]!;
    expect(result.is_error).toBe(true);
    expect(result.content).toBe('Not run: the user\'s approval rules never allow this run_command call ("Never allow run_command: rm -rf build"). Choose another approach, or ask the user.');
    expect(c.cards(id)[0]).toMatchObject({ status: 'denied' });
  });
});
