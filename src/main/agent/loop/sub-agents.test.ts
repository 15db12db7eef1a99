import { afterEach, describe, expect, it } from 'vitest';
import { closeAll, messagesOf, startChat, testTool } from '../../../../test-support/main/chat-test-setup';
import { byAgent, delegate, firstText, requestsOf, type Body } from '../../../../test-support/main/sub-agent-scripts';
import type { ScriptedTurn } from '../../../../test-support/scripted-api/scenario';
import type { ScriptedServer } from '../../../../test-support/scripted-api/server';
import { defineTool } from '../../tools/define-tool';
import { ok } from '../../tools/tool';
import { z } from 'zod';
import { JsonView } from '../../cli/run/run-views';

afterEach(closeAll);

/** A reading tool and a changing one, so read_only can be seen in the tools a sub-agent is offered. */
function workspaceTools() {
  const peek = defineTool({
    name: 'peek',
    description: 'Reads.',
    input: z.object({}).passthrough(),
    group: 'workspace',
    readOnly: true,
    summarize: () => 'peek',
    describeDryRun: () => 'peek',
    needsApproval: () => false,
    execute: async () => ok('peeked'),
  });
  const poke = testTool('poke', async () => ok('poked'));
  return [peek, poke];
}

describe('delegate: sub-agents', () => {
  it('runs each delegate call as a sub-agent with a fresh history, in parallel, and returns its final text', async () => {
    const { service, chats, recorder, session, server } = await startChat(
      { name: 'sub', turns: [] },
      {
        tools: workspaceTools(),
        server: {
          respond: byAgent({
            'Please split': [
              { kind: 'tool_use', calls: [delegate('toolu_A', 'alpha: read the code', { context: 'Files are in src/.', read_only: true }), delegate('toolu_B', 'beta: write the docs')] },
              { kind: 'text', text: 'Both done.' },
            ],
            alpha: [{ kind: 'tool_use', calls: [{ name: 'peek', input: {} }] }, { kind: 'text', text: 'Alpha found 3 files.' }],
            beta: [{ kind: 'text', text: 'Beta wrote the docs.' }],
          }),
        },
      },
    );
    const metered: string[] = [];
    service.onUsage((record) => metered.push(record.sessionId));
    service.sendMessage(session.id, 'Please split this work');
    await recorder.idle(session.id);

    // Fresh history: the task, then the context; nothing of the parent's conversation.
    const alpha = requestsOf(server, 'alpha');
    expect(alpha).toHaveLength(2);
    expect(alpha[0]!.messages).toHaveLength(1);
    expect(alpha[0]!.messages[0]).toMatchObject({ role: 'user', content: [{ type: 'text', text: 'alpha: read the code' }, { type: 'text', text: 'Context:\nFiles are in src/.' }] });
    expect(JSON.stringify(alpha)).not.toContain('Please split');
    // read_only: only the reading workspace tool, no MCP/changing tool; delegate offered (depth 1 < 2).
    const alphaTools = alpha[0]!.tools!.map((t) => t.name);
    expect(alphaTools).toContain('peek');
    expect(alphaTools).not.toContain('poke');
    expect(alphaTools).toContain('ask_user');
    expect(alphaTools).toContain('delegate');
    expect(requestsOf(server, 'beta')[0]!.tools!.map((t) => t.name)).toContain('poke');

    // Both ran before the parent's second request; their results come back in Claude's order.
    const parentSecond = messagesOf(server, server.requests.length - 1);
    const results = parentSecond[2]!.content as { tool_use_id: string; content: string; is_error?: boolean }[];
    expect(results.map((r) => [r.tool_use_id, r.content, r.is_error])).toEqual([
      ['toolu_A', 'Alpha found 3 files.', undefined],
      ['toolu_B', 'Beta wrote the docs.', undefined],
    ]);

    const agents = chats.getSession(session.id).subagents!;
    expect(agents.map((a) => [a.title, a.depth, a.status, a.parentToolUseId])).toEqual([
      ['alpha: read the code', 1, 'done', 'toolu_A'],
      ['beta: write the docs', 1, 'done', 'toolu_B'],
    ]);
    expect(recorder.ofType('subagent_updated').filter((e) => e.subagent.parentToolUseId === 'toolu_A').map((e) => e.subagent.status)).toEqual(['working', 'done']);
    // Its transcript card's lines: its tool calls and replies (each with the id of the item it shows).
    const withoutIds = (agent: (typeof agents)[number]) => agent.transcript?.map(({ id: _id, ...line }) => line);
    expect(withoutIds(agents[0]!)).toEqual([
      { kind: 'tool', text: 'peek', status: 'done', result: 'peeked' },
      { kind: 'message', text: 'Alpha found 3 files.' },
    ]);
    expect(withoutIds(agents[1]!)).toEqual([{ kind: 'message', text: 'Beta wrote the docs.' }]);
    // The sub-agents' spend is the chat's: every request, theirs too, is metered on the chat (its budget counts them).
    expect(metered).toEqual(server.requests.map(() => session.id));
  });

  it('answers an empty task with an error that says why, and starts nothing', async () => {
    const { service, chats, recorder, session, server } = await startChat(
      { name: 'empty', turns: [{ kind: 'tool_use', calls: [delegate('toolu_E', '   ')] }, { kind: 'text', text: 'ok' }] },
      {},
    );
    service.sendMessage(session.id, 'go');
    await recorder.idle(session.id);
    const result = (messagesOf(server, 1)[2]!.content as { content: string; is_error: boolean }[])[0]!;
    expect(result.is_error).toBe(true);
    expect(result.content).toContain('task is empty');
    expect(server.requests).toHaveLength(2);
    expect(chats.getSession(session.id).subagents).toEqual([]);
  });

  it('keeps at most "Sub-agents at once" working; the others wait their turn', async () => {
    let holding = 0;
    let most = 0;
    const hold = testTool('hold', async () => {
      holding++;
      most = Math.max(most, holding);
      await new Promise((r) => setTimeout(r, 60));
      holding--;
      return ok('held');
    });
    const tasks = ['t1', 't2', 't3', 't4', 't5'];
    const scripts: Record<string, ScriptedTurn[]> = {
      fan: [{ kind: 'tool_use', calls: tasks.map((t, i) => delegate(`toolu_${i}`, `${t}: hold`)) }, { kind: 'text', text: 'all held' }],
    };
    for (const t of tasks) scripts[t] = [{ kind: 'tool_use', calls: [{ name: 'hold', input: {} }] }, { kind: 'text', text: `${t} done` }];
    const { service, chats, recorder, session } = await startChat({ name: 'cap', turns: [] }, { tools: [hold], settings: { subAgentsAtOnce: 2 }, server: { respond: byAgent(scripts) } });
    service.sendMessage(session.id, 'fan out');
    await recorder.idle(session.id);
    expect(most).toBe(2);
    expect(chats.getSession(session.id).subagents!.map((a) => a.status)).toEqual(['done', 'done', 'done', 'done', 'done']);
  });

  it('offers delegate only below "Sub-agent depth"; a call deeper is an error that says why', async () => {
    const { service, recorder, session, server } = await startChat(
      { name: 'depth', turns: [] },
      {
        settings: { subAgentDepth: 1 },
        server: {
          respond: byAgent({
            top: [{ kind: 'tool_use', calls: [delegate('toolu_1', 'child: go deeper')] }, { kind: 'text', text: 'top done' }],
            child: [{ kind: 'tool_use', calls: [delegate('toolu_2', 'grandchild: never')] }, { kind: 'text', text: 'child could not' }],
          }),
        },
      },
    );
    service.sendMessage(session.id, 'top task');
    await recorder.idle(session.id);
    const child = requestsOf(server, 'child');
    expect(child[0]!.tools!.map((t) => t.name)).not.toContain('delegate');
    const refusal = (child[1]!.messages[2]!.content as unknown as { content: string; is_error: boolean }[])[0]!;
    expect(refusal.is_error).toBe(true);
    expect(refusal.content).toContain('Sub-agent depth');
    expect(requestsOf(server, 'grandchild')).toHaveLength(0);
  });

  it('runs a sub-agent of a sub-agent at depth 2 and hands its text up the tree', async () => {
    const { service, chats, recorder, session, server } = await startChat(
      { name: 'nest', turns: [] },
      {
        settings: { subAgentsAtOnce: 1 },
        server: {
          respond: byAgent({
            top: [{ kind: 'tool_use', calls: [delegate('toolu_1', 'child: ask below')] }, { kind: 'text', text: 'top done' }],
            child: [{ kind: 'tool_use', calls: [delegate('toolu_2', 'grandchild: answer')] }, { kind: 'text', text: 'child relays 42' }],
            grandchild: [{ kind: 'text', text: '42' }],
          }),
        },
      },
    );
    service.sendMessage(session.id, 'top task');
    await recorder.idle(session.id);
    // One slot: the child gives it to its own sub-agent while it waits (no deadlock).
    expect((requestsOf(server, 'child')[1]!.messages[2]!.content as unknown as { content: string }[])[0]!.content).toBe('42');
    const agents = chats.getSession(session.id).subagents!;
    expect(agents.map((a) => [a.title, a.depth, a.status, a.parentAgentId === agents[0]!.id])).toEqual([
      ['child: ask below', 1, 'done', false],
      ['grandchild: answer', 2, 'done', true],
    ]);
  });

  /** A tree: the chat → two sub-agents, each with a tool call and a sub-agent of its own, which calls a tool too. */
  const tree = (): Record<string, ScriptedTurn[]> => ({
    root: [{ kind: 'tool_use', calls: [delegate('toolu_c1', 'c1: part one'), delegate('toolu_c2', 'c2: part two')] }, { kind: 'text', text: 'root done' }],
    c1: [{ kind: 'tool_use', calls: [{ name: 'hold', input: {} }] }, { kind: 'tool_use', calls: [delegate('toolu_g1', 'g1: deeper one')] }, { kind: 'text', text: 'c1 done' }],
    c2: [{ kind: 'tool_use', calls: [{ name: 'hold', input: {} }] }, { kind: 'tool_use', calls: [delegate('toolu_g2', 'g2: deeper two')] }, { kind: 'text', text: 'c2 done' }],
    g1: [{ kind: 'tool_use', calls: [{ name: 'hold', input: {} }] }, { kind: 'text', text: 'g1 done' }],
    g2: [{ kind: 'tool_use', calls: [{ name: 'hold', input: {} }] }, { kind: 'text', text: 'g2 done' }],
  });
  const hold = () => testTool('hold', async () => (await new Promise((r) => setTimeout(r, 10)), ok('held')));

  /** Waits until no request has arrived for a while: every agent still going is held at the gate (or done). */
  async function quiet(server: ScriptedServer): Promise<void> {
    let seen = -1;
    while (seen !== server.requests.length) {
      seen = server.requests.length;
      await new Promise((r) => setTimeout(r, 250));
    }
  }

  it('Stop stops the whole tree at once: after it no request of the chat or any sub-agent reaches Claude (every cut point)', async () => {
    // The whole tree's requests, unstopped: root 2, c1 3, c2 3, g1 2, g2 2.
    const total = 12;
    for (let cut = 1; cut <= total; cut++) {
      const { service, recorder, session, server, chats } = await startChat({ name: `stop-${cut}`, turns: [], gated: true }, { tools: [hold()], settings: { subAgentsAtOnce: 4 }, server: { respond: byAgent(tree()) } });
      service.sendMessage(session.id, 'root task');
      // Let `cut - 1` requests through, one at a time (each release waits for a request held at
      // the gate), then Stop once the next has arrived and every agent still going waits there.
      for (let released = 0; released < cut - 1; released++) await server.release(1);
      while (server.requests.length < cut) await new Promise((r) => setTimeout(r, 20));
      await quiet(server);
      const before = server.requests.length;
      expect(service.stop(session.id), `cut ${cut}`).toEqual({ stopped: true });
      await recorder.idle(session.id, 0, 10_000);
      // A request sent now would be recorded on arrival, gate or not.
      await new Promise((r) => setTimeout(r, 300));
      expect(server.requests.length, `cut ${cut}: requests after Stop`).toBe(before);
      // Nothing is left working.
      expect(chats.getSession(session.id).subagents!.filter((a) => a.status === 'working'), `cut ${cut}`).toEqual([]);
      await closeAll();
    }
  }, 120_000);

  it('"Stop sub-agent" stops that one; its result says so with its plan\'s state, and its sibling and the chat go on', async () => {
    let releaseWait: () => void = () => undefined;
    const waiting = new Promise<void>((r) => (releaseWait = r));
    let started: () => void = () => undefined;
    const waitStarted = new Promise<void>((r) => (started = r));
    const wait = testTool('wait', async (_input, ctx) => {
      started();
      await Promise.race([waiting, new Promise((r) => ctx.signal.addEventListener('abort', r, { once: true }))]);
      return ok('waited');
    });
    const { service, chats, recorder, session, server } = await startChat(
      { name: 'stop-one', turns: [] },
      {
        tools: [wait],
        server: {
          respond: byAgent({
            root: [{ kind: 'tool_use', calls: [delegate('toolu_slow', 'slow: wait long'), delegate('toolu_fast', 'fast: quick')] }, { kind: 'text', text: 'root done' }],
            slow: [{ kind: 'tool_use', calls: [{ name: 'make_plan', input: { steps: ['Wait', 'Report'] } }] }, { kind: 'tool_use', calls: [{ name: 'wait', input: {} }] }, { kind: 'text', text: 'never' }],
            fast: [{ kind: 'text', text: 'fast answer' }],
          }),
        },
      },
    );
    service.sendMessage(session.id, 'root task');
    await waitStarted;
    const slow = chats.getSession(session.id).subagents!.find((a) => a.title.startsWith('slow'))!;
    expect(slow.status).toBe('working');
    expect(service.stopSubAgent(session.id, slow.id)).toEqual({ stopped: true });
    await recorder.idle(session.id);
    releaseWait();

    const last = server.requests.at(-1)!.body as Body;
    expect(firstText(last)).toBe('root task');
    const results = last.messages[2]!.content as unknown as { tool_use_id: string; content: string; is_error?: boolean }[];
    // Not a tool error: the user stopped it on purpose, and an error would escalate the step in progress.
    expect(results[0]!.tool_use_id).toBe('toolu_slow');
    expect(results[0]!.is_error).toBeUndefined();
    expect(results[0]!.content).toMatch(/^Stopped: the user stopped this sub-agent/);
    expect(results[0]!.content).toContain('0/2 steps done');
    expect(results[1]).toMatchObject({ tool_use_id: 'toolu_fast', content: 'fast answer' });
    expect(requestsOf(server, 'slow')).toHaveLength(2);
    const agents = chats.getSession(session.id).subagents!;
    expect(agents.map((a) => [a.title, a.status])).toEqual([
      ['slow: wait long', 'stopped'],
      ['fast: quick', 'done'],
    ]);
    expect(agents[0]!.plan?.steps.map((s) => s.title)).toEqual(['Wait', 'Report']);
    expect(service.stopSubAgent(session.id, slow.id)).toEqual({ stopped: false, reason: 'That sub-agent is not working now.' });
  });

  it('headless --json: events of a sub-agent carry agent {id, title, depth} and the chat\'s sessionId', async () => {
    const { service, chats, recorder, session } = await startChat(
      { name: 'json', turns: [] },
      {
        server: {
          respond: byAgent({
            'Ask a helper': [{ kind: 'tool_use', calls: [delegate('toolu_H', 'helper: count to three')] }, { kind: 'text', text: 'It counted.' }],
            helper: [{ kind: 'tool_use', calls: [delegate('toolu_D', 'deep: say one')] }, { kind: 'text', text: 'one two three' }],
            deep: [{ kind: 'text', text: 'one' }],
          }),
        },
      },
    );
    let out = '';
    const view = new JsonView(session.id, { stdout: { write: (text: string) => ((out += text), true) }, stderr: { write: () => true } } as never);
    chats.onEvent((event) => view.event(event));
    service.onAgentEvent((event) => view.agentEvent(event));
    service.sendMessage(session.id, 'Ask a helper');
    await recorder.idle(session.id);
    const lines = out.trimEnd().split('\n').map((l) => JSON.parse(l) as { type: string; sessionId: string; agent?: { id: string; title: string; depth: number }; item?: { kind: string; text?: string } });
    expect(new Set(lines.map((l) => l.sessionId))).toEqual(new Set([session.id]));
    const agents = chats.getSession(session.id).subagents!;
    const tagged = lines.filter((l) => l.agent);
    expect(new Set(tagged.map((l) => JSON.stringify(l.agent)))).toEqual(
      new Set([JSON.stringify({ id: agents[0]!.id, title: 'helper: count to three', depth: 1 }), JSON.stringify({ id: agents[1]!.id, title: 'deep: say one', depth: 2 })]),
    );
    // The sub-agents' replies are theirs, tagged; the chat's own reply is not.
    const replies = lines.filter((l) => l.type === 'transcript_item' && l.item?.kind === 'assistant' && l.item.text);
    expect(replies.filter((l) => l.item!.text === 'one two three').every((l) => l.agent?.depth === 1)).toBe(true);
    expect(replies.filter((l) => l.item!.text === 'one').every((l) => l.agent?.depth === 2)).toBe(true);
    expect(replies.filter((l) => l.item!.text === 'It counted.').every((l) => !l.agent)).toBe(true);
    expect(replies.some((l) => l.item!.text === 'It counted.')).toBe(true);
  });
});
