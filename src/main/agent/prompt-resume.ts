import type { ToolResultBlockParam } from '@anthropic-ai/sdk/resources/messages';
import type { WaypointEvent } from '../../shared/contract';
import type { PromptRequest } from '../common/prompt-gate';
import { appendUser, unansweredToolUses } from '../chats/api-history';
import type { ChatSession } from '../chats/chat-session';

export const NOT_RUN_AFTER_RESTART = 'Not run: Waypoint was restarted while this turn waited for the user.';

/** The held tool_use's tool_result, and whether the run must stop there (the plan was aborted). */
export interface PromptSettled {
  content: string;
  isError: boolean;
  halt: boolean;
}

export interface ResumeContext<Request, Answer> {
  session: ChatSession;
  request: Request;
  answer: Answer;
  publish(event: WaypointEvent): void;
}

/**
 * One kind of question as the resume path sees it (approvals, escalations; questions from Claude
 * next): where the chat's state keeps it, and what its answer does when no run waits on it.
 */
export interface ResumablePrompt<Request extends PromptRequest & { toolUseId?: string }, Answer> {
  /** The question the chat's state holds as pending (restored from its log after a restart). */
  pending(session: ChatSession): Request | null;
  /** Whether the answer can still be carried out (an approval needs its tool_use still open). */
  canResume(request: Request, openToolUses: readonly string[]): boolean;
  /**
   * Publishes the resolution at once (before any await: a second answer then finds nothing
   * pending) and carries out the answer.
   */
  settle(context: ResumeContext<Request, Answer>): Promise<PromptSettled>;
}

/**
 * Answers a question no live run waits on: the app restarted while it was pending. The answer
 * is carried out as a live run would, the held tool_use gets its tool_result and every other
 * open one a "not run" result (in the order Claude asked for them), so the history is valid and
 * the caller can start a new run, unless the answer halted it.
 */
export async function resumeAfterRestart<Request extends PromptRequest & { toolUseId?: string }, Answer>(
  kind: ResumablePrompt<Request, Answer>,
  session: ChatSession,
  requestId: string,
  answer: Answer,
  publish: (event: WaypointEvent) => void,
): Promise<'refused' | 'continue' | 'halted'> {
  const request = kind.pending(session);
  if (!request || request.id !== requestId || request.sessionId !== session.summary.id) return 'refused';
  const open = unansweredToolUses(session.history);
  if (!kind.canResume(request, open)) return 'refused';
  const settled = await kind.settle({ session, request, answer, publish });
  const results: ToolResultBlockParam[] = open.map((id) =>
    id === request.toolUseId
      ? { type: 'tool_result', tool_use_id: id, content: settled.content, ...(settled.isError ? { is_error: true } : {}) }
      : { type: 'tool_result', tool_use_id: id, content: NOT_RUN_AFTER_RESTART, is_error: true },
  );
  session.appendUser(results);
  return settled.halt ? 'halted' : 'continue';
}
