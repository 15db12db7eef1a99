import type { MessageParam, ToolResultBlockParam } from '@anthropic-ai/sdk/resources/messages';
import { unansweredToolUses } from '../../chats/api-history';

/**
 * The results of one run's open reply's calls that have ended (ToolRunContext.ended). A batch's
 * results reach the history only when the whole batch has ended, so while a sub-agent of that
 * reply waits for the person these are what the log keeps of them, for a restart to answer those
 * calls with (docs/architecture.md "Sub-agents' questions"). One per sub-agent's run, and one for
 * the chat's own run (SubAgentHost).
 */
export class EndedCalls {
  private readonly results = new Map<string, ToolResultBlockParam>();

  /** `history`: the run's API history, whose last reply's unanswered calls are the open ones. */
  constructor(private readonly history: () => readonly MessageParam[]) {}

  /** A call ended. Only the open reply's calls matter: those of earlier replies are in the history by now. */
  add(result: ToolResultBlockParam): void {
    const open = new Set(unansweredToolUses(this.history()));
    for (const id of this.results.keys()) if (!open.has(id)) this.results.delete(id);
    this.results.set(result.tool_use_id, result);
  }

  /** Copies of the kept results whose calls are still open, but the one waited on (`except`). */
  stillOpen(except?: string): ToolResultBlockParam[] {
    const open = new Set(unansweredToolUses(this.history()));
    return structuredClone([...this.results.values()].filter((result) => result.tool_use_id !== except && open.has(result.tool_use_id)));
  }
}
