import { randomUUID } from 'node:crypto';
import type { WaypointEvent } from '../../shared/contract';
import type { QuestionRequest } from '../../shared/prompts';
import type { PromptGate } from '../common/prompt-gate';
import { nowIso } from '../common/transcript-items';
import type { UserQuestion, UserReply } from '../tools/tool';

/** The questions from Claude (ask_user) runs are paused on: the third kind of prompt. */
export type QuestionGate = PromptGate<QuestionRequest, string>;

export interface AskerDeps {
  gate: QuestionGate;
  sessionId: string;
  signal: AbortSignal;
  /** Applies and emits an event (the session state keeps the pending question; the log has it at once). */
  publish(event: WaypointEvent): void;
}

/**
 * Shows Claude's question and waits for the answer (or Stop). The run state says what the loop
 * waits for, so a reloaded page asks again; after a restart question-resume.ts takes the answer.
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
    const answered = await deps.gate.wait(request, deps.signal);
    publish({ type: 'question_resolved', sessionId, requestId: request.id, outcome: answered.kind });
    if (answered.kind === 'cancelled') return { kind: 'cancelled' };
    publish({ type: 'run_state', sessionId, state: { status: 'running', phase: 'tools' } });
    return { kind: 'answered', answer: answered.answer };
  };
}
