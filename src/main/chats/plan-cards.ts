import { isDeepStrictEqual } from 'node:util';
import type { Plan, PlanCompletion, PlanStep } from '../../shared/plan';
import type { PlanChange, PlanUpdate } from '../../shared/plan-change';
import { cardSteps } from '../../shared/card-steps';
import { stepNumbers } from '../../shared/step-numbers';
import type { PlanCompletionItem, TranscriptItem } from '../../shared/transcript';
import { newItemId, nowIso } from '../common/transcript-items';

/**
 * Every finished plan leaves a completion card in the transcript (issue 12, item 7): Claude's
 * complete_plan summary, or one Waypoint makes from the plan when Claude wrote none (always in
 * the checklist dialect, which has no complete_plan). The card is a transcript item, so it is in
 * the chat's log and back after a restart; "Undo plan" updates it in place.
 */

/**
 * The card that closes this plan, if the transcript has one. `transcript` needs to hold only the
 * chat's completion cards (ChatSession.itemsOfKind, kept in memory), here and below.
 */
export function findCard(transcript: readonly TranscriptItem[], plan: Plan): PlanCompletionItem | undefined {
  // A card whose goal check reopened the plan closes an earlier completion: it keeps what it said.
  return transcript.findLast(
    (item): item is PlanCompletionItem =>
      item.kind === 'plan_completion' && !item.goalCheck?.reopened && (item.planId === plan.id || (item.planId === undefined && item.goal === plan.goal)),
  );
}

/**
 * What the card of a finished plan should say, keeping the existing card's id (and its counts
 * once the plan is undone, since the undo resets the steps); null while the plan is active.
 */
export function completionCard(plan: Plan, existing?: PlanCompletionItem): PlanCompletionItem | null {
  if (plan.status === 'active') return null;
  // The undo resets the steps: what the card said about them before stays.
  const before = plan.undone ? existing : undefined;
  const aborted = plan.status === 'cancelled' && !plan.completion && (!before || before.planStatus === 'cancelled');
  const check = goalCheckOf(plan);
  return {
    id: existing?.id ?? newItemId(),
    createdAt: existing?.createdAt ?? nowIso(),
    kind: 'plan_completion',
    goal: plan.goal,
    completion: plan.completion ?? before?.completion ?? summarize(plan),
    counts: before?.counts ?? countsOf(plan),
    steps: before ? (before.steps ?? []) : cardSteps(plan),
    planId: plan.id,
    dialect: plan.dialect,
    by: plan.completion ? 'claude' : (before?.by ?? 'waypoint'),
    ...(aborted ? { planStatus: 'cancelled' as const } : {}),
    ...(plan.undone ? { undone: plan.undone } : {}),
    ...(check ? { goalCheck: check } : {}),
  };
}

/** The goal check of the plan's current completion: none while one is due (a reopened plan completed again). */
function goalCheckOf(plan: Plan): PlanCompletionItem['goalCheck'] {
  const last = plan.goalChecks?.at(-1);
  if (!last || plan.goalCheckDue) return undefined;
  const { outcome, findings, error, noProgress, reopened } = last;
  return { outcome, findings, ...(error ? { error } : {}), ...(noProgress ? { noProgress } : {}), ...(reopened ? { reopened } : {}) };
}

/**
 * Decides which cards the transcript gets beyond what each plan_updated derives (its change line,
 * and complete_plan's card: shared/plan-change.ts). While Claude works, a plan that completed by
 * itself waits for the end of the run for its card (Claude may still call complete_plan).
 */
export class PlanCards {
  private readonly last = new Map<string, Plan>();

  /** Before the update is applied: a finished plan that a new one replaces in the same run still gets its card. */
  replaced(transcript: readonly TranscriptItem[], update: PlanUpdate): TranscriptItem[] {
    const previous = this.last.get(update.sessionId);
    this.last.set(update.sessionId, update.plan);
    return previous && previous.id !== update.plan.id ? this.changed(transcript, previous) : [];
  }

  /**
   * After the update was applied, so `transcript` holds what it derived: the plan's card when it
   * is due. A goal check comes after Claude's turn ended, so its verdict shows at once.
   */
  itemsFor(transcript: readonly TranscriptItem[], plan: Plan, running: boolean, change?: PlanChange): TranscriptItem[] {
    return !running || change?.kind === 'goal_check' || findCard(transcript, plan) ? this.changed(transcript, plan) : [];
  }

  /** At the end of a run: the card of a finished plan that has none yet. */
  settle(transcript: readonly TranscriptItem[], plan: Plan | null): TranscriptItem[] {
    return plan ? this.changed(transcript, plan) : [];
  }

  forget(sessionId: string): void {
    this.last.delete(sessionId);
  }

  /** The plan's card when it is new or differs from the one shown; nothing otherwise. */
  private changed(transcript: readonly TranscriptItem[], plan: Plan): PlanCompletionItem[] {
    const existing = findCard(transcript, plan);
    const card = completionCard(plan, existing);
    return card && !isDeepStrictEqual(card, existing) ? [card] : [];
  }
}

function countsOf(plan: Plan): PlanCompletionItem['counts'] {
  const s = plan.summary;
  return { completed: s.completed, failed: s.failed, skipped: s.skipped, total: s.total };
}

/** "step 3 "Title"", numbered as the panel numbers it (step-numbers.ts). */
const quoted = (step: PlanStep, numbers: ReadonlyMap<number, string>): string => `step ${numbers.get(step.id) ?? step.label ?? step.id} "${step.title}"`;

/** Waypoint's summary of a plan Claude closed without one: what got done, and what did not. */
function summarize(plan: Plan): PlanCompletion {
  const s = plan.summary;
  if (plan.undone) return { status: 'failed', summary: 'The plan was undone before it finished.', issues: [] };
  const numbers = stepNumbers(plan.steps);
  const issues = plan.steps
    .filter((step) => step.status !== 'completed' && (step.status !== 'pending' || plan.status === 'cancelled'))
    .map((step) => `${quoted(step, numbers).replace(/^s/, 'S')} ${step.status.replace('_', ' ')}${step.reason ? `: ${step.reason}` : ''}`);
  const done = plan.steps.filter((step) => step.status === 'completed').map((step) => step.title);
  const list = done.length ? `: ${clip(done.join('; '))}` : '';
  if (plan.status === 'cancelled') {
    return { status: 'failed', summary: `The plan was aborted after ${s.completed} of ${s.total} steps${list}.`, issues };
  }
  if (s.completed === s.total) return { status: 'success', summary: `All ${s.total} steps are done${list}.`, issues };
  // Completed by itself with steps left: the others were skipped.
  const rest = s.total - s.completed;
  return {
    status: s.completed > 0 ? 'partial_success' : 'failed',
    summary: `${s.completed} of ${s.total} steps ${s.completed === 1 ? 'is' : 'are'} done${list}; ${rest} ${rest === 1 ? 'was' : 'were'} skipped.`,
    issues,
  };
}

function clip(text: string): string {
  return text.length > 400 ? `${text.slice(0, 399)}…` : text;
}
