import type { WaypointEvent } from '../../../shared/contract';
import { spendOfBudget, type BudgetReached } from '../../../shared/budget';
import type { Plan } from '../../../shared/plan';
import { stepsLeft, stepsLeftText } from '../../../shared/plan-pause';
import { FAILURE_CODES } from '../../agent/model/api-error-map';
import { personNeededBy, type PersonNeeded } from './person-needed';
import { completedWords, inTerminalWords } from './terminal-words';

/** A risky call a run without --auto-approve refused: the tool and what it would have touched. */
export interface Refusal {
  tool: string;
  summary: string;
  /** Why it always asks (a change to git's configuration or hooks): refused even with --auto-approve. */
  protected?: string;
}

/** How a headless run ended, and its exit code (docs/contract.md §7). */
export type RunEnd =
  | { exitCode: 0; kind: 'done'; text: string }
  | { exitCode: 2; kind: 'person_needed'; person: PersonNeeded; text: string }
  | { exitCode: 3; kind: 'api_failed'; text: string }
  | { exitCode: 4; kind: 'refused'; refusals: Refusal[]; text: string }
  /** The plan's budget stopped the run: the spend is said; `--answer extend|end` answers it. */
  | { exitCode: 5; kind: 'budget'; spentUsd: number; text: string }
  | { exitCode: 1; kind: 'other'; reason: 'aborted' | 'stopped' | 'unfinished' | 'failed_plan' | 'cut_off' | 'error'; text: string };

const API_FAILURES: ReadonlySet<string> = new Set(FAILURE_CODES);
/** Notices that end a run without a finished answer. */
const CUT_OFF: ReadonlySet<string> = new Set(['turn_limit', 'max_tokens', 'internal']);

/**
 * Decides a run's exit code from the events the app's services fire, the ones `--json` prints:
 * the same events any other consumer sees, so a script can re-derive it. What stops the run
 * decides: a question for a person ends it at once (2); otherwise its end is judged when the
 * chat goes idle.
 */
export class RunOutcome {
  private plan: Plan | null;
  private running = false;
  private apiError: string | null = null;
  private cutOff: string | null = null;
  private stopped = false;
  readonly refusals: Refusal[] = [];

  constructor(
    private readonly sessionId: string,
    initialPlan: Plan | null,
  ) {
    this.plan = initialPlan;
  }

  /** Whether the chat's run has started (and not yet ended). */
  get started(): boolean {
    return this.running;
  }

  refused(refusal: Refusal): void {
    this.refusals.push(refusal);
  }

  /** Folds one event; returns the run's end when this event ended it. */
  observe(event: WaypointEvent): RunEnd | null {
    if (!('sessionId' in event) || event.sessionId !== this.sessionId) return null;
    const person = personNeededBy(event);
    if (person) return { exitCode: 2, kind: 'person_needed', person, text: person.text };
    switch (event.type) {
      case 'plan_updated':
        this.plan = event.plan;
        return null;
      case 'transcript_item':
        if (event.item.kind !== 'notice') return null;
        if (event.item.level === 'error' && event.item.code && API_FAILURES.has(event.item.code)) this.apiError = inTerminalWords(event.item.text);
        else if (event.item.code && CUT_OFF.has(event.item.code)) this.cutOff = event.item.text;
        else if (event.item.code === 'stopped') this.stopped = true;
        return null;
      case 'run_state':
        if (event.state.status !== 'idle') {
          if (!this.running) this.apiError = this.cutOff = null;
          this.running = true;
          return null;
        }
        if (!this.running) return null;
        this.running = false;
        return this.settle();
      default:
        return null;
    }
  }

  /** The end of a chat with no run going on (a resume that aborted the plan, or found nothing to do). */
  settle(): RunEnd {
    if (this.apiError) return { exitCode: 3, kind: 'api_failed', text: this.apiError };
    const plan = this.plan;
    const stop = plan?.status === 'active' ? plan.budget?.reached : undefined;
    if (plan && stop) return { exitCode: 5, kind: 'budget', spentUsd: stop.spentUsd, text: budgetStopText(plan, stop) };
    if (plan?.status === 'cancelled') return { exitCode: 1, kind: 'other', reason: 'aborted', text: `The plan "${plan.goal}" was aborted.` };
    if (this.stopped) return { exitCode: 1, kind: 'other', reason: 'stopped', text: 'The run was stopped.' };
    const refused = this.refusals.length > 0;
    const refusedText = () => {
      const plain = this.refusals.filter((r) => !r.protected);
      const always = this.refusals.filter((r) => r.protected);
      return [
        ...(plain.length ? [`Refused without --auto-approve: ${plain.map((r) => `${r.tool} (${r.summary})`).join('; ')}.`] : []),
        ...always.map((r) => `Refused: ${r.tool} (${r.summary}): ${r.protected}`),
        'None of these was done.',
      ].join(' ');
    };
    if (plan && (plan.status === 'partial' || plan.status === 'failed')) {
      if (refused) return { exitCode: 4, kind: 'refused', refusals: this.refusals, text: refusedText() };
      return { exitCode: 1, kind: 'other', reason: 'failed_plan', text: `The plan "${plan.goal}" ended ${plan.status === 'partial' ? 'partly done' : 'failed'}.` };
    }
    if (plan?.status === 'active') {
      if (refused) return { exitCode: 4, kind: 'refused', refusals: this.refusals, text: refusedText() };
      return { exitCode: 1, kind: 'other', reason: 'unfinished', text: `The plan "${plan.goal}" is unfinished: ${stepsLeftText(stepsLeft(plan))}.${this.cutOff ? ` ${this.cutOff}` : ''}` };
    }
    if (this.cutOff && plan?.status !== 'completed') return { exitCode: 1, kind: 'other', reason: 'cut_off', text: this.cutOff };
    if (refused) return { exitCode: 4, kind: 'refused', refusals: this.refusals, text: refusedText() };
    return { exitCode: 0, kind: 'done', text: plan?.status === 'completed' ? `The plan "${plan.goal}" ${plan.summary.skipped > 0 ? `is ${completedWords(plan.summary.skipped)}` : 'is complete'}.` : 'Done.' };
  }
}

/** What a run stopped at its budget says: the spend against the budget (or the time), and that nothing more was sent. */
function budgetStopText(plan: Plan, stop: BudgetReached): string {
  const what =
    stop.limit === 'time'
      ? `it ran ${Math.round(stop.elapsedMinutes)} of its ${plan.budget?.minutes ?? 0} minutes ($${stop.spentUsd.toFixed(2)} spent)`
      : `${spendOfBudget(stop.spentUsd, plan.budget?.usd ?? 0)} spent, and the next request would pass it`;
  return `Budget reached: the plan "${plan.goal}" stopped at its budget: ${what}.`;
}
