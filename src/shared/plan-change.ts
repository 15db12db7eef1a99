import { z } from 'zod';
import { Plan } from './plan';
import { cardSteps } from './card-steps';
import { nameStepsInChange } from './plan-change-text';
import { isUnfinished } from './plan-pause';
import type { PlanChangeItem, PlanCompletionItem, SessionSummary } from './transcript';

/**
 * One plan change as the event `plan_updated {sessionId, plan, change}` carries it (docs/contract.md §2):
 * the plan carries its version, the change says what happened and who did it. The transcript line
 * and the sidebar's progress are derived from it, by the same functions in main and in the
 * renderer, so the two never disagree. New kinds join the union (user edits: issue 14).
 */
export const PlanChange = z.discriminatedUnion('kind', [
  /** Claude called a planning tool. */
  z.object({ kind: z.literal('planning'), by: z.literal('claude'), summary: z.string() }),
  /** Recovery recorded an attempt on a step, or skipped it by the settings, after Claude's tool call failed. */
  z.object({ kind: z.literal('recovery'), by: z.literal('claude'), summary: z.string() }),
  /** The user answered an escalation: the step skipped, the plan aborted, or the step restarted with guidance. */
  z.object({ kind: z.literal('escalation'), by: z.literal('user'), answer: z.enum(['skip', 'abort', 'guidance']), summary: z.string() }),
  /** The user pressed "Undo plan": its files are back, the plan no longer stands. */
  z.object({ kind: z.literal('undo'), by: z.literal('user'), summary: z.string() }),
  /** The user edited the plan in the panel: renamed, skipped, deleted, moved or added a step. */
  z.object({ kind: z.literal('edit'), by: z.literal('user'), edit: z.enum(['rename', 'skip', 'delete', 'move', 'add']), summary: z.string() }),
  /** Plan first: the user approved Claude's proposal, or asked for a revision. */
  z.object({ kind: z.literal('review'), by: z.literal('user'), action: z.enum(['approve', 'feedback']), summary: z.string() }),
  /** A tool call was recorded on the step in progress (no transcript line: the tool card is there). */
  z.object({ kind: z.literal('activity'), by: z.literal('claude'), summary: z.string() }),
  /** The user showed another version of an edited message: its plan is shown again (no transcript line: the version's lines come with it). */
  z.object({ kind: z.literal('version'), by: z.literal('user'), summary: z.string() }),
  /**
   * Waypoint's goal check of a completed plan: its verdict (no transcript line: the completion
   * card shows it), or the plan reopened with "Fix: …" steps.
   */
  z.object({ kind: z.literal('goal_check'), by: z.literal('waypoint'), action: z.enum(['verdict', 'reopen']), summary: z.string() }),
  /** The plan's budget: the user set it, extended it or ended the plan at it; Waypoint stopped the run at it. */
  z.object({ kind: z.literal('budget'), by: z.enum(['user', 'waypoint']), action: z.enum(['set', 'reached', 'extend', 'end']), summary: z.string() }),
]);
export type PlanChange = z.infer<typeof PlanChange>;

/** Who changes a plan and how, before the engine words the change (the `summary`). */
export type PlanCause = PlanChange extends infer C ? (C extends PlanChange ? Omit<C, 'summary'> : never) : never;

/** A change whose own event the event pump folded into a later one, with the version it made. */
export const FoldedPlanChange = z.object({ version: z.number().int().nonnegative(), change: PlanChange });
export type FoldedPlanChange = z.infer<typeof FoldedPlanChange>;

/** The fields of `plan_updated` (contract.ts adds the type). */
export const PlanUpdateFields = {
  sessionId: z.string().min(1).max(100),
  plan: Plan,
  change: PlanChange,
  /** Earlier changes of the same plan, oldest first, when the event pump sent only the newest snapshot. */
  folded: z.array(FoldedPlanChange).optional(),
};
export interface PlanUpdate {
  sessionId: string;
  plan: Plan;
  change: PlanChange;
  folded?: FoldedPlanChange[];
}

/**
 * Whether `later` may replace `earlier` (same chat, sent later) in one event without losing what
 * a receiver derives: the same plan, and on the same side of its completion, so the completion
 * card still belongs to the first change of a folded event.
 */
export function canFold(earlier: PlanUpdate, later: PlanUpdate): boolean {
  return earlier.sessionId === later.sessionId && earlier.plan.id === later.plan.id && !!earlier.plan.completion === !!later.plan.completion;
}

/** `later`, carrying `earlier`'s changes too (check canFold first). */
export function foldPlanUpdates<T extends PlanUpdate>(earlier: T, later: T): T {
  const folded = [...(earlier.folded ?? []), { version: earlier.plan.version, change: earlier.change }, ...(later.folded ?? [])];
  return { ...later, folded };
}

/**
 * The transcript items of one plan update, given the plan the receiver held before it: a line per
 * change, except that the change which completed the plan shows as its completion card. Ids are
 * derived from the plan and version, so main, the session log and the renderer agree on them.
 */
export function planChangeItems(previous: Plan | null, update: PlanUpdate): Array<PlanChangeItem | PlanCompletionItem> {
  const { plan } = update;
  // A version shown again brings its own lines and card (restored with its transcript).
  if (update.change.kind === 'version') return [];
  const changes = [...(update.folded ?? []), { version: plan.version, change: update.change }];
  const completedNow = !!plan.completion && !(previous?.id === plan.id && previous.completion);
  return changes.flatMap(({ version, change }, index): Array<PlanChangeItem | PlanCompletionItem> => {
    if (completedNow && index === 0 && plan.completion) {
      return [
        {
          id: `plan:${plan.id}:done@${version}`,
          createdAt: plan.updatedAt,
          kind: 'plan_completion',
          goal: plan.goal,
          completion: plan.completion,
          counts: { completed: plan.summary.completed, failed: plan.summary.failed, skipped: plan.summary.skipped, total: plan.summary.total },
          steps: cardSteps(plan),
          planId: plan.id,
          dialect: plan.dialect,
          by: 'claude',
        },
      ];
    }
    // A recorded tool call has its own card in the transcript: no line of its own.
    if (change.kind === 'activity' || change.kind === 'version' || (change.kind === 'goal_check' && change.action === 'verdict')) return [];
    return [{ id: `plan:${plan.id}:v${version}`, createdAt: plan.updatedAt, kind: 'plan_change', text: nameStepsInChange(change.summary, plan), version }];
  });
}

type PlanProgress = NonNullable<SessionSummary['planProgress']>;

/**
 * The sidebar's view of a chat's plan. A pause (set by main when a turn ends with the plan
 * unfinished) holds through later changes while the plan stays unfinished; a new run clears it.
 */
export function planProgress(plan: Plan, previous?: PlanProgress): PlanProgress {
  const paused = !!previous?.paused && isUnfinished(plan);
  return { completed: plan.summary.completed, total: plan.summary.total, status: plan.status, ...(paused ? { paused: true } : {}) };
}
