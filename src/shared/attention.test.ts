import { describe, expect, it } from 'vitest';
import type { WaypointEvent } from './contract';
import { AttentionWatch, countWaiting, whatIsAsked } from './attention';

const approval = (sessionId: string, id: string): WaypointEvent => ({
  type: 'approval_requested',
  sessionId,
  request: { id, sessionId, toolUseId: 't', toolName: 'run_command', kind: 'command', summary: 'Run `npm test`', dryRun: '', createdAt: '' },
});
const question = (sessionId: string, id: string): WaypointEvent => ({
  type: 'question_requested',
  sessionId,
  request: { id, sessionId, toolUseId: 't', question: 'Which database?', options: ['Postgres', 'SQLite'], allowText: false, createdAt: '' },
});
const state = (sessionId: string, status: 'idle' | 'running' | 'awaiting_approval'): WaypointEvent => ({
  type: 'run_state',
  sessionId,
  state: status === 'running' ? { status, phase: 'streaming' } : status === 'idle' ? { status } : { status, requestId: 'a1' },
});

const reached = { id: 'stop-1', at: '2026-01-01T00:00:00.000Z', limit: 'usd' as const, spentUsd: 0.42, estimateUsd: 0.11, elapsedMinutes: 3 };
/** A plan_updated of chat `sessionId`; `stopped`: its plan awaits "Budget reached". */
const budgetPlan = (sessionId: string, stopped: boolean): WaypointEvent => ({
  type: 'plan_updated',
  sessionId,
  plan: { id: 'p1', status: 'active', steps: [], budget: { usd: 0.5, ...(stopped ? { reached } : {}) } },
  change: { kind: 'budget', by: 'waypoint', summary: 'budget' },
} as unknown as WaypointEvent);

describe('which events call a person', () => {
  it('a plan stopped at its budget calls a person once, says what is asked, counts as waiting, and its idle is not "Done"', () => {
    const watch = new AttentionWatch();
    watch.take(state('c1', 'running'));
    expect(watch.take(budgetPlan('c1', true))).toEqual({ sessionId: 'c1', kind: 'waiting', body: 'Budget reached: spent $0.42 of $0.50. Extend the budget or end the plan.', tag: 'waypoint-chat-c1' });
    expect(watch.take(state('c1', 'idle'))).toBeNull();
    expect(watch.take(budgetPlan('c1', true))).toBeNull();
    expect(watch.waiting()).toBe(1);
    // Answered ("End plan" / "Extend budget"): the plan no longer waits.
    expect(watch.take(budgetPlan('c1', false))).toBeNull();
    expect(watch.waiting()).toBe(0);
  });


  it('a prompt a chat starts waiting on, once per prompt, tagged by chat', () => {
    const watch = new AttentionWatch();
    expect(watch.take(approval('c1', 'a1'))).toEqual({ sessionId: 'c1', kind: 'waiting', body: 'Run `npm test` — approve or deny it.', tag: 'waypoint-chat-c1' });
    // The same prompt again (a reconnect, its run state) is the same wait: no second notification.
    expect(watch.take(state('c1', 'awaiting_approval'))).toBeNull();
    expect(watch.take(approval('c1', 'a1'))).toBeNull();
    // The next prompt of the chat is a new wait; it replaces the last (same tag).
    expect(watch.take(question('c1', 'q2'))).toMatchObject({ kind: 'waiting', body: 'Which database? (Postgres / SQLite)', tag: 'waypoint-chat-c1' });
    expect(watch.take(approval('c2', 'a1'))).toMatchObject({ sessionId: 'c2', tag: 'waypoint-chat-c2' });
  });

  it('a run that finishes says "Done"; Stop while a prompt waits and other events say nothing', () => {
    const watch = new AttentionWatch();
    expect(watch.take(state('c1', 'idle'))).toBeNull(); // nothing ran: a snapshot's idle
    expect(watch.take(state('c1', 'running'))).toBeNull();
    expect(watch.take({ type: 'message_delta', sessionId: 'c1', itemId: 'i', text: 'hi' })).toBeNull();
    expect(watch.take(state('c1', 'idle'))).toEqual({ sessionId: 'c1', kind: 'done', body: 'Done', tag: 'waypoint-chat-c1' });
    expect(watch.take(state('c1', 'awaiting_approval'))).toBeNull();
    expect(watch.take(state('c1', 'idle'))).toBeNull();
  });

  it('counts the chats waiting from their run states; a deleted chat no longer counts', () => {
    const watch = new AttentionWatch();
    watch.take(state('c1', 'awaiting_approval'));
    watch.take(state('c2', 'awaiting_approval'));
    watch.take(state('c3', 'running'));
    expect(watch.waiting()).toBe(2);
    watch.take(state('c1', 'running'));
    watch.take({ type: 'session_deleted', sessionId: 'c2' });
    expect(watch.waiting()).toBe(0);
    expect(countWaiting([{ status: 'awaiting_question', requestId: 'q' }, { status: 'awaiting_escalation', requestId: 'e' }, { status: 'idle' }])).toBe(2);
  });

  it('words an escalation and clips a long question', () => {
    const request = { id: 'r', sessionId: 's', stepId: 3, stepTitle: 'Place columns', toolName: 'edit_file', error: 'conflict', errorClass: 'conflict' as const, attempts: [], createdAt: '' };
    expect(whatIsAsked({ type: 'escalation_requested', sessionId: 's', request })).toBe('Step 3 ("Place columns") keeps failing. Skip it, abort the plan, or give Claude guidance.');
    expect(whatIsAsked({ type: 'escalation_requested', sessionId: 's', request: { ...request, stepId: null } })).toMatch(/^A task keeps failing/);
    const long = question('s', 'q') as Extract<WaypointEvent, { type: 'question_requested' }>;
    expect(whatIsAsked({ ...long, request: { ...long.request, question: 'x'.repeat(500), options: [] } })).toHaveLength(160);
    expect(whatIsAsked(state('s', 'idle'))).toBeNull();
  });
});

describe("a sub-agent's question in a notification", () => {
  it('names the sub-agent first', () => {
    const request = { id: 'q', sessionId: 's', toolUseId: 't', question: 'Which colour?', options: [], allowText: true, agent: { id: 'a-1', title: 'Paint it', depth: 1 }, createdAt: '' };
    expect(whatIsAsked({ type: 'question_requested', sessionId: 's', request })).toBe('Sub-agent: Paint it: Which colour?');
  });
});
