import { randomUUID } from 'node:crypto';
import type { WaypointEvent } from '../../../shared/contract';
import type { QuestionRequest } from '../../../shared/prompts';
import { nowIso } from '../../common/transcript-items';
import type { UserQuestion, UserReply } from '../../tools/tool';
import type { PauseKind } from './pause-kind';
import type { RunPauses } from './run-pauses';

export interface AskerDeps {
  /** Where this run waits while its chat awaits the answer. */
  pauses: RunPauses;
  /** What an answer does (question-kind.ts), on the one answer path. */
  kind: PauseKind<QuestionRequest, string>;
  sessionId: string;
  signal: AbortSignal;
  /** Applies and emits an event (the session state keeps the pending question; the log has it at once). */
  publish(event: WaypointEvent): void;
}

/**
 * Shows Claude's question and waits for the answer (or Stop). The run state says what the loop
 * waits for, so a reloaded page asks again; the chat's log keeps the question, so an answer after
 * a restart takes the same path (prompt-answers.ts).
 */
export function createAsker(deps: AskerDeps): (toolUseId: string, question: UserQuestion) => Promise<UserReply> {
  const { sessionId, publish } = deps;
  return async (toolUseId, question) => {
    const request: QuestionRequest = {
      id: randomUUID(),
      sessionId,
      toolUseId,
      question: question.question,
      options: question.options,
      allowText: question.allowText || question.options.length === 0,
      createdAt: nowIso(),
    };
    publish({ type: 'run_state', sessionId, state: { status: 'awaiting_question', requestId: request.id } });
    publish({ type: 'question_requested', sessionId, request });
    const { by, held } = await deps.pauses.settled(request, deps.signal, deps.kind);
    if (by === 'stop' || held.kind !== 'result') return { kind: 'cancelled' };
    publish({ type: 'run_state', sessionId, state: { status: 'running', phase: 'tools' } });
    return { kind: 'answered', answer: held.content };
  };
}
