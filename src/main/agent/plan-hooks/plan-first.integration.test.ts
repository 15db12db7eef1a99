import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Scenario, ScriptedTurn } from '../../../../test-support/scripted-api/scenario';
import type { ScriptedServer } from '../../../../test-support/scripted-api/server';
import { scripted, startInstance, type Instance } from '../../../../test-support/main/persistence-test-kit';
import { settingsSource } from '../../../../test-support/main/chat-test-harness';
import { messagesOf, type RecordedMessage } from '../../../../test-support/main/chat-test-setup';
import type { Dialect } from '../../../shared/plan';
import { approvalMessage } from '../../../shared/plan-review';
import { createWorkspaceTools } from '../../tools/workspace/index';

// Plan first through the loop, the real PlanService, the session log and the real SDK against
// scripted Claude, in each dialect (docs/contract.md §2): before approval the write comes back as an
// is_error tool result and nothing is written; nothing is sent while the proposal waits (also
// across a restart); after "Approve plan" Claude hears so, naming the version, and the write runs.

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const write = (content: string): ScriptedTurn => ({ kind: 'tool_use', calls: [{ name: 'write_file', input: { path: 'out.txt', content } }] });
const use = (name: string, input: unknown): ScriptedTurn => ({ kind: 'tool_use', calls: [{ name, input }] });

/** Per dialect: the call that proposes a one-step plan, and the call that starts that step. */
const PROPOSE: Record<Dialect, { propose: ScriptedTurn[]; start: ScriptedTurn }> = {
  structured: {
    propose: [use('create_plan', { goal: 'Write out.txt', steps: [{ step_number: 1, description: 'Write the file' }] })],
    start: use('update_plan', { action: 'start_step', step_number: 1 }),
  },
  checklist: {
    propose: [use('update_plan', { explanation: 'Write out.txt', plan: [{ step: 'Write the file', status: 'pending' }] })],
    start: use('update_plan', { plan: [{ step: 'Write the file', status: 'in_progress' }] }),
  },
  wbs: {
    propose: [
      use('planning_initialize', { problem_statement: 'Write out.txt', project_name: 'Out' }),
      use('planning_add_step', { session_id: '{{sessionId}}', step_number: 1, planning_analysis: 'One item.', wbs_items: [{ id: '1.0', title: 'Write the file', level: 0, priority: 'High' }] }),
    ],
    // The WBS dialect has no step status calls: the work just goes on after approval.
    start: use('planning_status', { session_id: '{{sessionId}}' }),
  },
  session: {
    propose: [use('planning_setup_plan', { objective: 'Write out.txt', initial_steps: ['Write the file'] })],
    start: use('planning_update_step', { step_id: 1, status: 'in_progress' }),
  },
};

async function start(scenario: Scenario, dialect: Dialect) {
  const dataDir = mkdtempSync(join(tmpdir(), 'wp-planfirst-'));
  const workspace = mkdtempSync(join(tmpdir(), 'wp-planfirst-ws-'));
  const server: ScriptedServer = await scripted(scenario);
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }), () => rmSync(workspace, { recursive: true, force: true }), () => server.close());
  const settings = settingsSource({ planningStyle: dialect, planFirst: true, autoApproveEdits: true });
  const tools = () => createWorkspaceTools(workspace);
  const ctx = { app: (await startInstance(dataDir, server.url, settings, tools())) as Instance };
  cleanups.push(() => ctx.app.close());
  const session = ctx.app.chats.newSession();
  return {
    ctx,
    server,
    session,
    settings,
    workspace,
    restart: async () => {
      await ctx.app.close();
      ctx.app = await startInstance(dataDir, server.url, settings, tools());
    },
  };
}

const resultsIn = (message: RecordedMessage | undefined) =>
  Array.isArray(message?.content) ? message.content.filter((b) => b.type === 'tool_result') : [];

describe.each<Dialect>(['structured', 'checklist', 'wbs', 'session'])('plan first, %s dialect', (dialect) => {
  it('refuses the write before approval (is_error, nothing written), sends nothing while the proposal waits, runs it after', async () => {
    const { propose, start: startStep } = PROPOSE[dialect];
    const t = await start(
      {
        name: `plan-first-${dialect}`,
        turns: [
          write('too early'),
          ...propose,
          { kind: 'text', text: 'Here is my plan. Approve it and I will write the file.' },
          startStep,
          write('approved'),
          { kind: 'text', text: 'Written.' },
        ],
      },
      dialect,
    );
    const { ctx, server, session } = t;
    ctx.app.chat.sendMessage(session.id, 'Write out.txt');
    await ctx.app.idle(session.id);

    // The early write: an is_error result from the tool layer, saying the plan awaits approval.
    const refused = resultsIn(messagesOf(server, 1).at(-1))[0];
    expect(refused).toMatchObject({ is_error: true });
    expect(String(refused?.content)).toMatch(/^Not run: this chat is in plan-first mode and the plan awaits the user's approval\./);
    expect(() => readFileSync(join(t.workspace, 'out.txt'))).toThrow();
    // The system prompt says how plan first works while the plan waits.
    expect(JSON.stringify((server.requests[0]!.body as { system: unknown }).system)).toContain('## Plan first');

    const plan = ctx.app.chats.getSession(session.id).plan!;
    expect(plan.review).toEqual({ state: 'proposed' });
    // The proposal's results told Claude to end its turn.
    const proposed = resultsIn(messagesOf(server, 1 + propose.length).at(-1)).map((b) => String(b.content)).join('\n');
    expect(proposed).toContain("proposed; awaiting the user's approval — end your turn");
    // Not paused: it waits for the user's approval.
    expect(ctx.app.chats.listSessions()[0]?.planProgress?.paused).toBeUndefined();

    // Nothing more goes to Claude, and the proposal survives a restart.
    const sent = server.requests.length;
    expect(sent).toBe(2 + propose.length);
    await t.restart();
    expect(server.requests.length).toBe(sent);
    const restored = ctx.app.chats.getSession(session.id).plan!;
    expect(restored).toMatchObject({ id: plan.id, version: plan.version, review: { state: 'proposed' } });

    ctx.app.chat.reviewPlan(session.id, { planId: plan.id, version: plan.version, decision: { kind: 'approve' } });
    await ctx.app.idle(session.id);
    const approvedRequest = messagesOf(server, sent);
    expect(approvedRequest.at(-1)).toMatchObject({ role: 'user' });
    expect(JSON.stringify(approvedRequest.at(-1))).toContain(approvalMessage(plan.version));
    expect(JSON.stringify((server.requests[sent]!.body as { system: unknown }).system)).not.toContain('## Plan first');
    expect(readFileSync(join(t.workspace, 'out.txt'), 'utf8')).toBe('approved');
    const written = resultsIn(messagesOf(server, sent + 2).at(-1))[0];
    expect(written?.is_error).toBeUndefined();
    expect(ctx.app.chats.getSession(session.id).plan!.review).toMatchObject({ state: 'approved', version: plan.version });
  });
});

describe('plan first, the approval of risky calls', () => {
  it('approving the plan does not approve its risky calls: the write still asks', async () => {
    const t = await start(
      { name: 'plan-first-asks', turns: [...PROPOSE.structured.propose, { kind: 'text', text: 'Plan ready.' }, PROPOSE.structured.start, write('x'), { kind: 'text', text: 'Done.' }] },
      'structured',
    );
    t.settings.set({ autoApproveEdits: false });
    const { ctx, session } = t;
    ctx.app.chat.sendMessage(session.id, 'Write out.txt');
    await ctx.app.idle(session.id);
    const plan = ctx.app.chats.getSession(session.id).plan!;
    ctx.app.chat.reviewPlan(session.id, { planId: plan.id, version: plan.version, decision: { kind: 'approve' } });
    for (const deadline = Date.now() + 10_000; !ctx.app.chats.getSession(session.id).pendingApproval; await new Promise((r) => setTimeout(r, 10))) {
      if (Date.now() > deadline) throw new Error('the write never asked for approval');
    }
    expect(ctx.app.chats.getSession(session.id).pendingApproval).toMatchObject({ toolName: 'write_file' });
    ctx.app.chat.stop(session.id);
    await ctx.app.idle(session.id);
  });

  it('the approval covers that plan only: after it completes, the next task in the chat is proposed again before anything changes', async () => {
    const t = await start(
      {
        name: 'plan-first-next-task',
        turns: [
          ...PROPOSE.structured.propose,
          { kind: 'text', text: 'Plan ready.' },
          PROPOSE.structured.start,
          write('first'),
          use('update_plan', { action: 'complete_step', step_number: 1, result: 'written' }),
          { kind: 'text', text: 'Done.' },
          write('second, unasked'),
          { kind: 'text', text: 'I will propose a plan for that first.' },
        ],
      },
      'structured',
    );
    const { ctx, server, session } = t;
    ctx.app.chat.sendMessage(session.id, 'Write out.txt');
    await ctx.app.idle(session.id);
    const plan = ctx.app.chats.getSession(session.id).plan!;
    ctx.app.chat.reviewPlan(session.id, { planId: plan.id, version: plan.version, decision: { kind: 'approve' } });
    await ctx.app.idle(session.id);
    expect(ctx.app.chats.getSession(session.id).plan).toMatchObject({ status: 'completed', review: { state: 'approved' } });
    expect(readFileSync(join(t.workspace, 'out.txt'), 'utf8')).toBe('first');

    const sent = server.requests.length;
    ctx.app.chat.sendMessage(session.id, 'Now write it again');
    await ctx.app.idle(session.id);
    expect(JSON.stringify((server.requests[sent]!.body as { system: unknown }).system)).toContain('## Plan first');
    const refused = resultsIn(messagesOf(server, sent + 1).at(-1))[0];
    expect(refused).toMatchObject({ is_error: true });
    expect(String(refused?.content)).toMatch(/^Not run: this chat is in plan-first mode and the last plan is completed: a new plan awaits the user's approval\./);
    expect(readFileSync(join(t.workspace, 'out.txt'), 'utf8')).toBe('first');
  });

  it('"Send feedback" reaches Claude as a user message naming the version; the approval of an older version is refused', async () => {
    const t = await start(
      {
        name: 'plan-first-revise',
        turns: [...PROPOSE.structured.propose, { kind: 'text', text: 'Plan ready.' }, ...PROPOSE.structured.propose, { kind: 'text', text: 'Revised.' }],
      },
      'structured',
    );
    const { ctx, server, session } = t;
    ctx.app.chat.sendMessage(session.id, 'Write out.txt');
    await ctx.app.idle(session.id);
    const first = ctx.app.chats.getSession(session.id).plan!;
    const before = ctx.app.events.length;
    ctx.app.chat.reviewPlan(session.id, { planId: first.id, version: first.version, decision: { kind: 'revise', feedback: 'Also add a README step.' } });
    expect(() => ctx.app.chat.reviewPlan(session.id, { planId: first.id, version: first.version, decision: { kind: 'approve' } })).toThrow(/still working/);
    for (const deadline = Date.now() + 10_000; !ctx.app.events.slice(before).some((e) => e.type === 'run_state' && e.state.status === 'idle'); await new Promise((r) => setTimeout(r, 10))) {
      if (Date.now() > deadline) throw new Error('the revision run did not end');
    }
    expect(JSON.stringify(messagesOf(server, 2).at(-1))).toContain(`Please revise the proposed plan (version ${first.version}) and propose it again: Also add a README step.`);
    const revised = ctx.app.chats.getSession(session.id).plan!;
    expect(revised.id).not.toBe(first.id);
    expect(() => ctx.app.chat.reviewPlan(session.id, { planId: first.id, version: first.version, decision: { kind: 'approve' } })).toThrow(/replaced the proposal/);
    const sent = server.requests.length;
    expect(() => ctx.app.chat.reviewPlan(session.id, { planId: revised.id, version: revised.version - 1, decision: { kind: 'approve' } })).toThrow(/changed since you looked/);
    expect(server.requests.length).toBe(sent);
    expect(ctx.app.chats.getSession(session.id).plan).toBe(revised);
  });
});
