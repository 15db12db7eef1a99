import type { Plan, PlanStep } from '../../../shared/plan';
import type { ReviewDecision } from '../../../shared/plan-review';
import { type EngineOptions, type OpResult, rejected } from './engine-types';
import { amend, sealPlan } from './seal';

/**
 * Plan first (docs/contract.md §2): a plan Claude makes in a plan-first chat is a proposal. Until the
 * user approves it, Claude's planning calls may only shape it; the user approves the version they
 * saw, or sends feedback. Approving and feedback are plan changes (versioned, logged).
 */

const END_TURN = 'End your turn so the user can review it.';

/** A new plan made in a plan-first chat: every step pending, marked as awaiting approval. */
export function propose(result: OpResult): OpResult {
  if (!result.ok) return result;
  const started = result.plan.steps.find((s) => s.status !== 'pending');
  if (started || result.plan.completion) {
    return rejected(
      `This chat is in plan-first mode: a new plan is a proposal the user approves first, so every step starts pending${started ? ` (step ${started.id} is ${started.status.replace('_', ' ')})` : ''} and it can't be completed. Propose it with every step pending, then end your turn.`,
    );
  }
  return { ...result, plan: amend(result.plan, { review: { state: 'proposed' } }) };
}

/**
 * Claude's change to a plan that awaits approval: reshaping is fine, progress is not (no step
 * started, completed, failed or skipped, no completion). Null when the change may stand.
 */
export function proposalGuard(before: Plan, after: Plan): string | null {
  const was = new Map<number, PlanStep>(before.steps.map((s) => [s.id, s]));
  const moved = after.steps.find((s) => s.status !== 'pending' && was.get(s.id)?.status !== s.status);
  if (!moved && !after.completion && after.status !== 'cancelled') return null;
  return `The plan (version ${before.version}) is a proposal awaiting the user's approval: until the user approves it you may reshape it (add, rename or remove steps, or propose it again) but not start, complete, fail or skip a step, nor complete the plan. ${END_TURN}`;
}

const NO_PROPOSAL = 'There is no proposed plan awaiting your approval in this chat.';

/**
 * Why an answer to the proposal the user saw (`planId` at `version`) cannot be taken now, in
 * words; null when it can. The answer path checks this before anything changes.
 */
export function proposalProblem(plan: Plan | null, planId: string, version: number): string | null {
  if (!plan || plan.status !== 'active' || !plan.review) return NO_PROPOSAL;
  if (plan.id !== planId) return 'Claude replaced the proposal with a new plan since you looked at it. Review the new plan.';
  if (plan.review.state === 'approved') return `This plan is already approved (version ${plan.review.version}).`;
  if (version !== plan.version) {
    return `The proposal changed since you looked at it (you saw version ${version}; it is at version ${plan.version} now). Review it again.`;
  }
  return null;
}

/** "Approve plan" or "Send feedback" on the proposal the user saw (`planId` at `version`). */
export function reviewProposal(plan: Plan | null, planId: string, version: number, decision: ReviewDecision, options: EngineOptions): OpResult {
  const problem = proposalProblem(plan, planId, version);
  if (problem || !plan) return rejected(problem ?? NO_PROPOSAL);
  const at = options.now().toISOString();
  if (decision.kind === 'approve') {
    return sealPlan({ ...plan, review: { state: 'approved', version, at } }, plan.version, options, `You approved the plan (version ${version})`);
  }
  const text = decision.feedback.trim();
  const shown = text.length > 200 ? `${text.slice(0, 199)}…` : text;
  return sealPlan(
    { ...plan, review: { state: 'proposed', feedback: { text, at, version } } },
    plan.version,
    options,
    `You asked Claude to revise the plan: ${JSON.stringify(shown)}`,
  );
}

/** What a successful planning call tells Claude while its plan awaits approval. */
export function proposalNote(plan: Pick<Plan, 'version'> & { steps: readonly unknown[] }): string {
  const empty = plan.steps.length === 0 ? ' (Add its steps first.)' : '';
  return `Plan version ${plan.version} proposed; awaiting the user's approval — end your turn.${empty} Until the user approves it, file changes, commands and MCP tools that change things are refused; the user approves it or asks for changes in their next message.`;
}
