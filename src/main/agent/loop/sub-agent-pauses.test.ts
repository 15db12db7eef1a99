import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { closeAll, startChat } from '../../../../test-support/main/chat-test-setup';
import { byAgent, delegate, requestsOf, resultOf } from '../../../../test-support/main/sub-agent-scripts';
import { defineTool } from '../../tools/define-tool';
import { ok } from '../../tools/tool';

afterEach(closeAll);

/** A changing tool that always asks (its calls are counted, so a run without approval shows). */
function askingTool(name: string, runs: string[]) {
  return defineTool({
    name,
    description: 'Changes something.',
    input: z.object({}).passthrough(),
    group: 'workspace',
    summarize: () => `${name} the thing`,
    describeDryRun: () => `Would ${name}`,
    needsApproval: () => true,
    execute: async () => (runs.push(name), ok(`${name} done`)),
  });
}

/** The chat's run waits (its delegate call open) while alpha asks; beta finishes meanwhile. */
const askingTree = (alphaAsks: { name: string; id: string; input: Record<string, unknown> }) =>
  byAgent({
    'Split it': [{ kind: 'tool_use', calls: [delegate('toolu_A', 'alpha: change it'), delegate('toolu_B', 'beta: read it')] }, { kind: 'text', text: 'All done.' }],
    alpha: [{ kind: 'tool_use', calls: [alphaAsks] }, { kind: 'text', text: 'Alpha finished.' }],
    beta: [{ kind: 'text', text: 'Beta finished.' }],
  });

describe('a sub-agent asks the user', () => {
  it("its approval is the chat's, labelled with it; its sibling goes on; Approve from the chat's door runs it on and then the parent", async () => {
    const runs: string[] = [];
    const { service, chats, recorder, session, server } = await startChat(
      { name: 'sub-approval', turns: [] },
      { tools: [askingTool('poke', runs)], server: { respond: askingTree({ name: 'poke', id: 'toolu_poke', input: {} }) } },
    );
    service.sendMessage(session.id, 'Split it');
    const asked = await recorder.waitFor((e) => e.type === 'approval_requested' && e.sessionId === session.id);
    if (asked.type !== 'approval_requested') throw new Error('unreachable');
    expect(asked.request.agent).toMatchObject({ title: 'alpha: change it', depth: 1 });
    expect(asked.request.sessionId).toBe(session.id);
    // The chat waits for a person (Needs you, the header's count, a notification) while its run is open.
    await recorder.waitFor((e) => e.type === 'subagent_updated' && e.subagent.title === 'beta: read it' && e.subagent.status === 'done');
    const waiting = chats.getSession(session.id);
    expect(waiting.runState).toEqual({ status: 'awaiting_approval', requestId: asked.request.id });
    expect(waiting.pendingApproval?.agent?.title).toBe('alpha: change it');
    expect(waiting.subagents!.map((a) => [a.title, a.status])).toEqual([
      ['alpha: change it', 'working'],
      ['beta: read it', 'done'],
    ]);
    expect(runs).toEqual([]);
    // The parent's delegate calls are still open: it sent nothing after its first request.
    expect(requestsOf(server, 'Split it')).toHaveLength(1);

    expect(service.answerApproval(session.id, asked.request.id, 'approve')).toEqual({ accepted: true });
    // A second answer to the same question changes nothing.
    expect(service.answerApproval(session.id, asked.request.id, 'deny')).toEqual({ accepted: false });
    await recorder.idle(session.id);
    expect(runs).toEqual(['poke']);
    const alpha = requestsOf(server, 'alpha');
    expect(resultOf(alpha[1]!, 'toolu_poke')).toMatchObject({ content: 'poke done' });
    const parent = requestsOf(server, 'Split it');
    expect(parent).toHaveLength(2);
    expect(resultOf(parent[1]!, 'toolu_A')).toMatchObject({ content: 'Alpha finished.' });
    expect(resultOf(parent[1]!, 'toolu_B')).toMatchObject({ content: 'Beta finished.' });
    const after = chats.getSession(session.id);
    expect(after.pendingApproval).toBeNull();
    expect(after.subagents!.map((a) => a.status)).toEqual(['done', 'done']);
    expect(recorder.ofType('approval_resolved').map((e) => [e.sessionId, e.decision])).toEqual([[session.id, 'approved']]);
  });

  it("its question (ask_user) answered through another door (answerPause, the inbox's and other processes' path) is its call's result", async () => {
    const { service, chats, recorder, session, server } = await startChat(
      { name: 'sub-question', turns: [] },
      { server: { respond: askingTree({ name: 'ask_user', id: 'toolu_q', input: { question: 'Which colour?', options: ['red', 'blue'] } }) } },
    );
    service.sendMessage(session.id, 'Split it');
    const asked = await recorder.waitFor((e) => e.type === 'question_requested' && e.sessionId === session.id);
    if (asked.type !== 'question_requested') throw new Error('unreachable');
    expect(asked.request.agent?.title).toBe('alpha: change it');
    expect(chats.getSession(session.id).runState.status).toBe('awaiting_question');
    expect(() => service.answerPause(session.id, 'question', asked.request.id, 'green')).toThrow(/Pick one of those/);
    expect(service.answerPause(session.id, 'question', asked.request.id, 'blue')).toEqual({ accepted: true });
    await recorder.idle(session.id);
    expect(resultOf(requestsOf(server, 'alpha')[1]!, 'toolu_q')).toMatchObject({ content: 'blue' });
    expect(resultOf(requestsOf(server, 'Split it')[1]!, 'toolu_A')).toMatchObject({ content: 'Alpha finished.' });
  });

  it('two sub-agents asking at once are put to the user one after the other; each answer runs on its own sub-agent only', async () => {
    const runs: string[] = [];
    const { service, chats, recorder, session, server } = await startChat(
      { name: 'sub-two-ask', turns: [] },
      {
        tools: [askingTool('poke', runs), askingTool('zap', runs)],
        server: {
          respond: byAgent({
            'Split it': [{ kind: 'tool_use', calls: [delegate('toolu_A', 'alpha: poke it'), delegate('toolu_B', 'beta: zap it')] }, { kind: 'text', text: 'All done.' }],
            alpha: [{ kind: 'tool_use', calls: [{ name: 'poke', id: 'toolu_poke', input: {} }] }, { kind: 'text', text: 'Alpha poked.' }],
            beta: [{ kind: 'tool_use', calls: [{ name: 'zap', id: 'toolu_zap', input: {} }] }, { kind: 'text', text: 'Beta zapped.' }],
          }),
        },
      },
    );
    service.sendMessage(session.id, 'Split it');
    const first = await recorder.waitFor((e) => e.type === 'approval_requested' && e.sessionId === session.id);
    if (first.type !== 'approval_requested') throw new Error('unreachable');
    // Both wait; the chat shows one question (it has one pending approval), the other in line.
    await recorder.waitFor((e) => e.type === 'subagent_waiting' && e.waiting.agentId !== first.request.agent!.id);
    expect(recorder.ofType('approval_requested')).toHaveLength(1);
    expect(chats.getSession(session.id).pendingApproval?.id).toBe(first.request.id);
    // Both wait for the person, the one in line too: each snapshot says so ("Needs you" on both).
    expect(chats.getSession(session.id).subagents!.map((a) => [a.title, a.asking])).toEqual([
      ['alpha: poke it', true],
      ['beta: zap it', true],
    ]);

    expect(service.answerApproval(session.id, first.request.id, 'approve')).toEqual({ accepted: true });
    const second = await recorder.waitFor((e) => e.type === 'approval_requested' && e.sessionId === session.id && e.request.id !== first.request.id);
    if (second.type !== 'approval_requested') throw new Error('unreachable');
    expect(second.request.agent!.id).not.toBe(first.request.agent!.id);
    expect(chats.getSession(session.id).runState).toEqual({ status: 'awaiting_approval', requestId: second.request.id });
    expect(service.answerApproval(session.id, second.request.id, 'deny')).toEqual({ accepted: true });
    await recorder.idle(session.id);
    // One ran, the other was denied: each answer went to its own sub-agent.
    expect(runs).toEqual([first.request.toolName]);
    const parent = requestsOf(server, 'Split it');
    expect(parent).toHaveLength(2);
    expect(chats.getSession(session.id).subagents!.map((a) => [a.status, a.asking])).toEqual([
      ['done', undefined],
      ['done', undefined],
    ]);
  });

  it('Stop while a sub-agent waits cancels its question, and after it no request reaches Claude', async () => {
    const runs: string[] = [];
    const { service, chats, recorder, session, server } = await startChat(
      { name: 'sub-stop', turns: [] },
      { tools: [askingTool('poke', runs)], server: { respond: askingTree({ name: 'poke', id: 'toolu_poke', input: {} }) } },
    );
    service.sendMessage(session.id, 'Split it');
    const asked = await recorder.waitFor((e) => e.type === 'approval_requested' && e.sessionId === session.id);
    await recorder.waitFor((e) => e.type === 'subagent_updated' && e.subagent.title === 'beta: read it' && e.subagent.status === 'done');
    const before = server.requests.length;
    expect(service.stop(session.id)).toEqual({ stopped: true });
    await recorder.idle(session.id);
    await new Promise((r) => setTimeout(r, 300));
    expect(server.requests.length).toBe(before);
    expect(runs).toEqual([]);
    const after = chats.getSession(session.id);
    expect(after.pendingApproval).toBeNull();
    expect(after.runState.status).toBe('idle');
    expect(after.subagents!.map((a) => [a.title, a.status])).toEqual([
      ['alpha: change it', 'stopped'],
      ['beta: read it', 'done'],
    ]);
    expect(recorder.ofType('approval_resolved').map((e) => [e.requestId, e.decision])).toEqual([[(asked as { request: { id: string } }).request.id, 'cancelled']]);
    // The stale question is gone: answering it now changes nothing.
    expect(service.answerApproval(session.id, (asked as { request: { id: string } }).request.id, 'approve')).toEqual({ accepted: false });
  });

  it("the chat's approval rules decide a sub-agent's calls, and its \"Approve for this chat\" covers the chat's later calls", async () => {
    const runs: string[] = [];
    const { service, chats, recorder, session, server } = await startChat(
      { name: 'sub-rules', turns: [] },
      {
        settings: { approvalRules: [{ id: 'r1', tool: 'zap', pattern: '*', effect: 'deny', createdAt: new Date().toISOString() }] },
        tools: [askingTool('poke', runs), askingTool('zap', runs)],
        server: {
          respond: byAgent({
            'Split it': [
              { kind: 'tool_use', calls: [delegate('toolu_A', 'alpha: change it')] },
              { kind: 'tool_use', calls: [{ name: 'poke', id: 'toolu_parent_poke', input: {} }] },
              { kind: 'text', text: 'All done.' },
            ],
            alpha: [{ kind: 'tool_use', calls: [{ name: 'zap', id: 'toolu_zap', input: {} }] }, { kind: 'tool_use', calls: [{ name: 'poke', id: 'toolu_poke', input: {} }] }, { kind: 'text', text: 'Alpha finished.' }],
          }),
        },
      },
    );
    service.sendMessage(session.id, 'Split it');
    const asked = await recorder.waitFor((e) => e.type === 'approval_requested' && e.sessionId === session.id);
    if (asked.type !== 'approval_requested') throw new Error('unreachable');
    // The deny rule refused the sub-agent's zap without asking; poke asks.
    expect(asked.request.toolName).toBe('poke');
    expect(resultOf(requestsOf(server, 'alpha')[1]!, 'toolu_zap')?.content).toMatch(/approval rules never allow this zap call/);
    expect(service.answerApproval(session.id, asked.request.id, 'approve_chat')).toEqual({ accepted: true });
    await recorder.idle(session.id);
    // The scope went to the chat: the parent's own poke ran unasked.
    expect(chats.getSession(session.id).session.approvalRules?.map((r) => [r.tool, r.effect])).toEqual([['poke', 'allow']]);
    expect(runs).toEqual(['poke', 'poke']);
    expect(recorder.ofType('approval_requested')).toHaveLength(1);
  });

  it("plan-first mode holds a sub-agent back with the chat's other changes: before a plan is approved no delegate call starts one", async () => {
    const runs: string[] = [];
    const { service, recorder, session, server } = await startChat(
      { name: 'sub-plan-first', turns: [] },
      {
        settings: { planFirst: true },
        tools: [askingTool('poke', runs)],
        server: {
          respond: byAgent({
            'Split it': [{ kind: 'tool_use', calls: [delegate('toolu_A', 'alpha: change it', { read_only: true })] }, { kind: 'text', text: 'Waiting for approval.' }],
            alpha: [{ kind: 'tool_use', calls: [{ name: 'poke', id: 'toolu_poke', input: {} }] }, { kind: 'text', text: 'Alpha could not.' }],
          }),
        },
      },
    );
    service.sendMessage(session.id, 'Split it');
    await recorder.idle(session.id);
    expect(runs).toEqual([]);
    expect(requestsOf(server, 'alpha')).toHaveLength(0);
    expect(resultOf(requestsOf(server, 'Split it')[1]!, 'toolu_A')?.content).toMatch(/plan-first mode/);
  });
});

describe("a sub-agent's MCP tools", () => {
  const mcpTool = (tool: string, readOnly: boolean, runs: string[]) =>
    defineTool({
      name: `notes__${tool}`,
      description: `${tool} (from MCP server "notes")`,
      input: z.object({}).passthrough(),
      group: 'mcp',
      server: 'notes',
      serverTool: tool,
      ...(readOnly ? { readOnly: true } : {}),
      summarize: () => `notes: ${tool}`,
      describeDryRun: () => `Would call ${tool} on MCP server "notes"`,
      needsApproval: () => true,
      execute: async () => (runs.push(tool), ok(`${tool} done`)),
    });

  it('are the chat\'s servers\' tools (read-only: only those marked readOnlyHint), under the chat\'s approval: its call asks, labelled', async () => {
    const runs: string[] = [];
    const { service, recorder, session, server } = await startChat(
      { name: 'sub-mcp', turns: [] },
      {
        tools: [mcpTool('search', true, runs), mcpTool('write', false, runs)],
        server: {
          respond: byAgent({
            'Split it': [{ kind: 'tool_use', calls: [delegate('toolu_A', 'alpha: write a note'), delegate('toolu_B', 'beta: search notes', { read_only: true })] }, { kind: 'text', text: 'All done.' }],
            alpha: [{ kind: 'tool_use', calls: [{ name: 'notes__write', id: 'toolu_w', input: {} }] }, { kind: 'text', text: 'Alpha wrote.' }],
            beta: [{ kind: 'text', text: 'Beta searched.' }],
          }),
        },
      },
    );
    service.sendMessage(session.id, 'Split it');
    const asked = await recorder.waitFor((e) => e.type === 'approval_requested' && e.sessionId === session.id);
    if (asked.type !== 'approval_requested') throw new Error('unreachable');
    expect(asked.request).toMatchObject({ kind: 'mcp', server: 'notes', toolName: 'notes__write', agent: { title: 'alpha: write a note' } });
    expect(requestsOf(server, 'alpha')[0]!.tools!.map((t) => t.name)).toEqual(expect.arrayContaining(['notes__search', 'notes__write']));
    const betaTools = requestsOf(server, 'beta')[0]!.tools!.map((t) => t.name);
    expect(betaTools).toContain('notes__search');
    expect(betaTools).not.toContain('notes__write');
    service.answerApproval(session.id, asked.request.id, 'approve');
    await recorder.idle(session.id);
    expect(runs).toEqual(['write']);
  });
});
