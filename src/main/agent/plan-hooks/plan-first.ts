import type { Dialect, Plan } from '../../../shared/plan';
import { changesHeldBack } from '../../../shared/plan-first';
import type { Settings } from '../../../shared/settings';
import type { ToolDefinition } from '../../tools/tool';

/**
 * Plan first in the loop (docs/contract.md §2): until the user approves Claude's proposed plan, every
 * tool that changes something is refused by the tool layer — never by the prompt alone — and the
 * system prompt says how the mode works. Planning calls are checked by the plan service.
 */

/** Whether this chat's changing tools are held back now (plan first needs the planning tools: agentic mode). */
export function heldForApproval(settings: Settings, plan: Plan | null): boolean {
  return settings.agenticMode && changesHeldBack(plan, settings.planFirst);
}

/** The tool error for a call that may not run yet, or null when it may. */
export function planFirstRefusal(tool: ToolDefinition, held: boolean, plan: Plan | null): string | null {
  if (!held || tool.group === 'planning' || tool.readOnly) return null;
  const which = !plan ? 'the plan' : plan.status === 'active' ? `the plan (version ${plan.version})` : `the last plan is ${plan.status}: a new plan`;
  return `Not run: this chat is in plan-first mode and ${which} awaits the user's approval. Until the user approves a proposed plan, only reading tools and planning calls that shape the proposal work: ${tool.name} changes things. Propose the plan (or revise it), then end your turn.`;
}

const PROPOSE_WITH: Record<Dialect, string> = {
  structured: 'create_plan (a new create_plan replaces the proposal)',
  checklist: 'update_plan (every step pending)',
  wbs: 'planning_initialize and planning_add_step',
  session: 'planning_setup_plan (it replaces the proposal) and planning_add_step',
};

/** The system prompt's note while the chat waits for an approved plan. */
export function planFirstNote(dialect: Dialect): string {
  return `## Plan first
This chat is in plan-first mode: nothing may change until the user approves your plan. Explore with reading tools only (file writes and edits, commands and MCP tools that change things are refused), then propose the plan with ${PROPOSE_WITH[dialect]}, every step pending, and end your turn. The user approves it or asks for changes in their next message; revise the same way and end your turn again.`;
}
