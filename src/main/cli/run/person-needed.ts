import type { CallOutput, EventOf, WaypointEvent } from '../../../shared/contract';
import { parseBudgetField, type BudgetAnswer } from '../../../shared/budget';
import { askedBy, type EscalationAnswer } from '../../../shared/prompts';
import { awaitsRetry, RetryAnswer } from '../../../shared/retry-now';
import type { CallRouter } from '../../app/call-router';
import type { Services } from '../../app/services';
import { WAYPOINT_COMMAND } from './terminal-words';

/**
 * "A person is needed" (exit 2), for every kind of question a run pauses on (docs/contract.md §7), in one
 * table each way: how the question is told when it is asked, and how `--answer` answers it on
 * `--resume`. Approvals are not here: a headless run answers them itself (--auto-approve, or a
 * refusal and exit 4) — except one a window paused on, which `--answer approve|deny` answers.
 */
export interface PersonNeeded {
  kind: 'escalation' | 'question';
  requestId: string;
  /** What stopped the run, in a sentence or two. */
  text: string;
  /** The answers --answer takes as they are; `freeText` says what else it takes. */
  options: string[];
  freeText: string | null;
}

type Describe<T extends WaypointEvent['type']> = (event: EventOf<T>) => PersonNeeded;
type PromptTable = { [T in WaypointEvent['type']]?: Describe<T> };

export const PERSON_NEEDED: PromptTable = {
  escalation_requested: ({ request }) => ({
    kind: 'escalation',
    requestId: request.id,
    text: askedBy(request, `${request.stepId ? `Step ${request.stepId} "${request.stepTitle}"` : 'A tool call'} keeps failing (${request.toolName}: ${firstLine(request.error)}). Claude needs a decision.`),
    options: ['skip', 'abort'],
    freeText: 'guidance for Claude',
  }),
  question_requested: ({ request }) => ({
    kind: 'question',
    requestId: request.id,
    text: askedBy(request, `Claude asks: ${request.question}`),
    options: request.options,
    freeText: request.allowText || request.options.length === 0 ? 'an answer in your own words' : null,
  }),
};

/** The question this event asks a person, if it asks one. */
export function personNeededBy(event: WaypointEvent): PersonNeeded | null {
  const describe = PERSON_NEEDED[event.type] as ((event: WaypointEvent) => PersonNeeded) | undefined;
  return describe ? describe(event) : null;
}

type Snapshot = CallOutput<'getSession'>;

/** One kind of question as `--resume … --answer` sees it. */
export interface Answerer {
  /** The question the chat waits on, as its snapshot holds it. */
  pending(snapshot: Snapshot): PersonNeeded | null;
  /** Sends `--answer` through the app's call router; `continues` is false when no run follows (abort). */
  answer(router: CallRouter, sessionId: string, requestId: string, text: string): Promise<{ accepted: boolean; error?: string; continues: boolean }>;
}

const escalation: Answerer = {
  pending: (snapshot) => (snapshot.pendingEscalation ? PERSON_NEEDED.escalation_requested!({ type: 'escalation_requested', sessionId: snapshot.session.id, request: snapshot.pendingEscalation }) : null),
  async answer(router, sessionId, requestId, text) {
    const word = text.trim().toLowerCase();
    const answer: EscalationAnswer = word === 'skip' ? { kind: 'skip' } : word === 'abort' ? { kind: 'abort' } : { kind: 'guidance', text };
    const result = await router('answerEscalation', { sessionId, requestId, answer });
    if (!result.ok) return { accepted: false, error: result.error.message, continues: false };
    return { accepted: (result.value as { accepted: boolean }).accepted, continues: answer.kind !== 'abort' };
  },
};

const question: Answerer = {
  pending: (snapshot) => (snapshot.pendingQuestion ? PERSON_NEEDED.question_requested!({ type: 'question_requested', sessionId: snapshot.session.id, request: snapshot.pendingQuestion }) : null),
  async answer(router, sessionId, requestId, text) {
    // Verbatim, as the app sends it: an option's text or the typed answer (checked by the app).
    const result = await router('answerQuestion', { sessionId, requestId, answer: text });
    if (!result.ok) return { accepted: false, error: result.error.message, continues: false };
    return { accepted: (result.value as { accepted: boolean }).accepted, continues: true };
  },
};

export const ANSWERERS: readonly Answerer[] = [escalation, question];

/**
 * `--answer` to a plan proposal (plan first) the chat awaits: "approve" approves the version
 * proposed, any other words go to Claude as the feedback that revises it — as the app's "Approve
 * plan" and "Send feedback" do.
 */
export async function answerPlanProposal(router: CallRouter, sessionId: string, plan: { id: string; version: number }, text: string): Promise<{ accepted: boolean; error?: string }> {
  const decision = text.trim().toLowerCase() === 'approve' ? { kind: 'approve' as const } : { kind: 'revise' as const, feedback: text };
  const result = await router('reviewPlan', { sessionId, planId: plan.id, version: plan.version, decision });
  return result.ok ? { accepted: true } : { accepted: false, error: result.error.message };
}

/**
 * `--answer` to a chat awaiting "Retry now" (its run gave up on API faults, in this process or one
 * that has quit since): "retry" sends the kept message again, "abort" leaves it unsent; anything
 * else is bad input. The answer takes the one answer path (the `retry` pause kind).
 */
export function awaitedRetry(snapshot: Snapshot): string | null {
  const last = snapshot.transcript.at(-1);
  return snapshot.runState.status === 'idle' && awaitsRetry(last) ? last.id : null;
}

export function answerRetry(answerPause: Services['answerPause'], sessionId: string, requestId: string, text: string): { accepted: boolean; error?: string; continues: boolean } {
  const parsed = RetryAnswer.safeParse(text.trim().toLowerCase());
  if (!parsed.success) return { accepted: false, error: `the API failure is answered with retry or abort, not "${text}"`, continues: false };
  try {
    return { accepted: answerPause(sessionId, 'retry', requestId, parsed.data).accepted, continues: parsed.data === 'retry' };
  } catch (error) {
    return { accepted: false, error: (error as Error).message, continues: false };
  }
}

/**
 * `--answer` to a plan stopped at its budget: "extend" adds the plan's budget once more (a run
 * goes on), "end" ends the plan partly done (nothing runs); a dollar figure sets that budget.
 */
export async function answerBudget(router: CallRouter, sessionId: string, requestId: string, text: string): Promise<{ accepted: boolean; error?: string; continues: boolean }> {
  const word = text.trim().toLowerCase();
  const figure = word === 'extend' || word === 'end' ? null : parseBudgetField(word, 'usd');
  if (figure && (!figure.ok || figure.value === null)) return { accepted: false, error: `a plan stopped at its budget is answered with extend, end or a new budget in dollars, not "${text}"`, continues: false };
  const answer: BudgetAnswer = word === 'end' ? { kind: 'end' } : figure?.ok && figure.value !== null ? { kind: 'extend', usd: figure.value } : { kind: 'extend' };
  const result = await router('answerBudget', { sessionId, requestId, answer });
  if (!result.ok) return { accepted: false, error: result.error.message, continues: false };
  return { accepted: (result.value as { accepted: boolean }).accepted, continues: answer.kind === 'extend' };
}

/**
 * `--answer` to an approval the chat awaits (asked in a window that has since closed, say): a
 * person's approve or deny, sent like the app's buttons; anything else is bad input.
 */
export async function answerApproval(router: CallRouter, sessionId: string, requestId: string, text: string): Promise<{ accepted: boolean; error?: string }> {
  const word = text.trim().toLowerCase();
  if (word !== 'approve' && word !== 'deny') return { accepted: false, error: `an approval is answered with approve or deny, not "${text}"` };
  const result = await router('answerApproval', { sessionId, requestId, decision: word });
  if (!result.ok) return { accepted: false, error: result.error.message };
  return { accepted: (result.value as { accepted: boolean }).accepted };
}

/** The answering command, as printed with exit 2. */
export function answerCommand(sessionId: string, options: { dataDir: string; json: boolean; autoApprove: boolean }, answer = 'ANSWER'): string {
  const parts = [WAYPOINT_COMMAND, 'run', '--resume', sessionId, '--answer', shellQuote(answer), '--data-dir', shellQuote(options.dataDir)];
  if (options.json) parts.push('--json');
  if (options.autoApprove) parts.push('--auto-approve');
  return parts.join(' ');
}

/** A word as a POSIX shell reads it back: bare when safe, else in single quotes. */
export function shellQuote(text: string): string {
  return /^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}

function firstLine(text: string): string {
  const line = text.split('\n')[0]!.trim();
  return line.length > 200 ? `${line.slice(0, 199)}…` : line;
}
