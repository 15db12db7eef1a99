import type { Plan } from '../../../shared/plan';
import type { PlanChange, PlanUpdate } from '../../../shared/plan-change';
import { nameStepsInChange } from '../../../shared/plan-change-text';
import type { Disposable } from '../../common/emitter';

/**
 * What the user changed in the plan since the agent's last tool call, as the note that ends its
 * next tool result (docs/contract.md §2: "The user edited the plan: …", one clause per edit). An MCP
 * client has no other way to learn of it: it only hears back from its own calls.
 *
 * Every plan change made by the user reaches `notice`, whatever its kind; `clause` words one.
 * User edits of issue 14 (rename, skip, delete, move, add) bring their own wording there.
 */
export class UserEditNotes implements Disposable {
  private readonly pending: string[] = [];
  private readonly subscription: Disposable;

  constructor(
    onPlanUpdated: (listener: (update: PlanUpdate) => void) => Disposable,
    private readonly sessionId: () => string | null,
  ) {
    this.subscription = onPlanUpdated((update) => this.notice(update));
  }

  notice(update: PlanUpdate): void {
    if (update.sessionId !== this.sessionId() || update.change.by !== 'user') return;
    this.pending.push(clause(update.change, update.plan));
  }

  /** The note for the next tool result, once; null when the user changed nothing. */
  take(): string | null {
    if (!this.pending.length) return null;
    const note = `The user edited the plan: ${this.pending.join('; ')}.`;
    this.pending.length = 0;
    return note;
  }

  dispose(): void {
    this.subscription.dispose();
  }
}

/**
 * One user change in words, naming its steps by id and title. The summaries are written to the
 * person ("You renamed step 3"); the note already says "The user edited the plan", and read by an
 * MCP client a leading "you" would say the client did it, so the clause starts at the verb.
 */
export function clause(change: PlanChange, plan: Plan): string {
  const text = nameStepsInChange(change.summary, plan)
    .replace(/^Updated plan: /, '')
    .replace(/^You /, '')
    .replace(/\.$/, '');
  return text.charAt(0).toLowerCase() + text.slice(1);
}
