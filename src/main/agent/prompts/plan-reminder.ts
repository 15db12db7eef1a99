import type { Plan } from '../../../shared/plan';
import type { ToolDefinition } from '../../tools/tool';

/** Non-planning tool calls in a row, with a step in progress, before Claude is nudged. */
export const REMINDER_AFTER_CALLS = 6;

/**
 * Keeps the model honest about its plan without spending tokens on every turn: after several
 * tool calls with a step in progress and no plan update, one short reminder rides along with
 * the tool results. The count starts again after any planning call or reminder.
 */
export class PlanReminder {
  private callsSincePlanUpdate = 0;

  constructor(private readonly threshold = REMINDER_AFTER_CALLS) {}

  /** Counts this turn's tool calls; returns the reminder text when it is due. */
  afterTools(calledNames: readonly string[], tools: readonly ToolDefinition[], plan: Plan | null): string | null {
    const planning = new Set(tools.filter((t) => t.group === 'planning').map((t) => t.name));
    if (calledNames.some((name) => planning.has(name))) {
      this.callsSincePlanUpdate = 0;
      return null;
    }
    this.callsSincePlanUpdate += calledNames.length;
    const current = plan?.status === 'active' ? plan.steps.find((s) => s.status === 'in_progress') : undefined;
    if (!current || this.callsSincePlanUpdate < this.threshold) return null;
    this.callsSincePlanUpdate = 0;
    return `Reminder: step ${current.id} "${current.title}" is still in progress after ${this.threshold}+ tool calls. Update the plan when it is done, or note what is blocking it.`;
  }
}
