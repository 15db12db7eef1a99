import type { ApprovalCheck } from '../pauses/approval-step';

/**
 * A sub-agent's approval gate: the chat's rules and settings decide as for the chat's own calls
 * (a deny rule refuses, an allow rule or auto-approve lets it run), and a call that would ask the
 * user is refused instead — a sub-agent's run cannot end at a question yet, and nothing it does
 * may skip one. Claude hears why, so its final answer can hand the step back to the parent.
 */
export function noPersonHere(approve: ApprovalCheck): ApprovalCheck {
  return (block, tool, input, card) => {
    const verdict = approve(block, tool, input, card);
    if (verdict.kind !== 'paused') return verdict;
    return {
      kind: 'refused',
      status: 'denied',
      message: `Not run: this ${tool.name} call needs the user's approval, and a sub-agent cannot ask for it. Don't retry it; finish what you can without it, and say in your final answer exactly what call is needed, so the agent that delegated to you can make it.`,
    };
  };
}
