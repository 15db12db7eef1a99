import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { MessageParam } from '@anthropic-ai/sdk/resources/messages';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import type { WaypointEvent } from '../../../shared/contract';
import type { Plan } from '../../../shared/plan';
import type { EscalationAnswer, EscalationRequest } from '../../../shared/prompts';
import { defaultSettings } from '../../../shared/settings';
import { PlanService } from '../../plan/plan-service';
import { historyProblems } from '../../../../test-support/main/history-check';
import { ChatSession } from '../../chats/chat-session';
import { escalationKind } from './escalation-kind';
import { settleHeld } from './pause-kind';
import { unansweredToolUses } from '../../chats/api-history';
import { ABORTED_RESULT } from '../../recovery/escalation-answer';
import { PagedItems } from '../../store/paging/paged-items';
import { callTool } from '../../tools/define-tool';

const dataDir = mkdtempSync(join(tmpdir(), 'wp-answer-prop-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const answers = fc.oneof(
  fc.constant<EscalationAnswer>({ kind: 'skip' }),
  fc.constant<EscalationAnswer>({ kind: 'abort' }),
  fc.string({ minLength: 1, maxLength: 40 }).filter((s) => s.trim().length > 0).map((text): EscalationAnswer => ({ kind: 'guidance', text })),
);

async function planWithRunningStep(plans: PlanService, sessionId: string, steps: number, running: number): Promise<void> {
  const tools = plans.toolsFor('structured');
  const ctx = { sessionId, signal: new AbortController().signal, settings: defaultSettings() };
  const create = tools.find((t) => t.name === 'create_plan')!;
  const update = tools.find((t) => t.name === 'update_plan')!;
  const made = await callTool(create, { goal: 'g', steps: Array.from({ length: steps }, (_, i) => ({ step_number: i + 1, description: `step ${i + 1}` })) }, ctx);
  expect(made.ok).toBe(true);
  for (let id = 1; id < running; id++) {
    expect((await callTool(update, { action: 'start_step', step_number: id }, ctx)).ok).toBe(true);
    expect((await callTool(update, { action: 'complete_step', step_number: id, result: 'ok' }, ctx)).ok).toBe(true);
  }
  expect((await callTool(update, { action: 'start_step', step_number: running }, ctx)).ok).toBe(true);
}

function consistent(plan: Plan): void {
  const count = (s: string) => plan.steps.filter((x) => x.status === s).length;
  expect(count('in_progress')).toBeLessThanOrEqual(1);
  expect(plan.summary).toMatchObject({ total: plan.steps.length, completed: count('completed'), skipped: count('skipped'), in_progress: count('in_progress'), pending: count('pending') });
  if (plan.status === 'completed') expect(plan.steps.every((s) => s.status === 'completed' || s.status === 'skipped')).toBe(true);
}

describe('answers always leave a consistent plan and a valid history', () => {
  it('skip / abort / guidance on any running step, with any number of open tool_uses', async () => {
    let n = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 6 }).chain((steps) => fc.tuple(fc.constant(steps), fc.integer({ min: 1, max: steps }))),
        fc.integer({ min: 1, max: 4 }).chain((uses) => fc.tuple(fc.constant(uses), fc.integer({ min: 0, max: uses - 1 }))),
        answers,
        async ([steps, running], [uses, held], answer) => {
          const plans = new PlanService({ dataDir });
          const sessionId = `s${n++}`;
          await planWithRunningStep(plans, sessionId, steps, running);
          const ids = Array.from({ length: uses }, (_, i) => `toolu_${i}`);
          // The tools before the held one finished; the held one and those after it have no result yet.
          const history: MessageParam[] = [
            { role: 'user', content: 'go' },
            { role: 'assistant', content: ids.map((id) => ({ type: 'tool_use' as const, id, name: 'edit_file', input: {} })) },
            ...(held > 0 ? [{ role: 'user' as const, content: ids.slice(0, held).map((id) => ({ type: 'tool_result' as const, tool_use_id: id, content: 'ok' })) }] : []),
          ];
          const request: EscalationRequest = {
            id: 'req', sessionId, stepId: running, stepTitle: `step ${running}`, toolName: 'edit_file', toolUseId: ids[held]!,
            error: 'old_text was not found', errorClass: 'not_found', attempts: [], createdAt: new Date().toISOString(),
          };
          // The chat as it comes back from its log after a restart: the escalation still pending.
          const session = new ChatSession({ id: sessionId, title: 'Chat', createdAt: request.createdAt, updatedAt: request.createdAt }, new PagedItems());
          session.restoreHistory(history);
          session.apply({ type: 'escalation_requested', sessionId, request });
          const events: WaypointEvent[] = [];
          const publish = (e: WaypointEvent) => {
            session.apply(e);
            events.push(e);
          };
          const kind = escalationKind(plans);
          // What the answer path does before any run goes on: the pending request only, then its handler and the held call.
          const answerNow = async () => {
            const pending = kind.pending(session);
            if (pending?.id !== 'req') return 'refused';
            const held = await kind.answered({ session, publish }, pending, answer);
            const halted = held.kind === 'result' && held.halt;
            settleHeld(session, pending.toolUseId, held, publish, halted ? ABORTED_RESULT : null);
            return halted ? 'halted' : 'continue';
          };
          const outcome = await answerNow();

          // The calls after the held one are left, in order, to the run that goes on (run-loop.ts); a halt answers them.
          expect(unansweredToolUses(session.history)).toEqual(outcome === 'halted' ? [] : ids.slice(held + 1));
          if (outcome === 'continue') session.closeOpenToolUses('ran in the run that went on');
          expect(historyProblems(session.history)).toEqual([]);
          const plan = plans.getPlan(sessionId)!;
          consistent(plan);
          const step = plan.steps.find((s) => s.id === running)!;
          if (answer.kind === 'skip') {
            expect(outcome).toBe('continue');
            expect(step.status).toBe('skipped');
            expect(step.reason).toMatch(/Skipped by the user/);
          } else if (answer.kind === 'abort') {
            expect(outcome).toBe('halted');
            expect(plan.status).toBe('cancelled');
          } else {
            expect(outcome).toBe('continue');
            expect(step.status).toBe('in_progress');
            const last = session.history.at(-1)!.content as { tool_use_id: string; content: string }[];
            expect(last.find((b) => b.tool_use_id === request.toolUseId)!.content).toContain(answer.text.trim());
          }
          expect(events.filter((e) => e.type === 'escalation_resolved')).toHaveLength(1);
          // Answered once: a second answer is refused and changes nothing.
          const again = await answerNow();
          expect(again).toBe('refused');
          expect(events.filter((e) => e.type === 'escalation_resolved')).toHaveLength(1);
          plans.dispose();
        },
      ),
      { numRuns: 60 },
    );
  });
});
