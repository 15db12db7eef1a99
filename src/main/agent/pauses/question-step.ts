import { randomUUID } from 'node:crypto';
import type { QuestionRequest } from '../../../shared/prompts';
import { nowIso } from '../../common/transcript-items';
import type { UserQuestion } from '../../tools/tool';
import type { Pause } from './pause-kind';

/**
 * Claude's question (ask_user) as the chat's awaiting state: the request and the run state that
 * names it. The run ends there; the answer, from whatever door, takes the one answer path
 * (prompt-answers.ts) and becomes the call's tool_result, verbatim.
 */
export function questionPause(sessionId: string, toolUseId: string, question: UserQuestion): Pause {
  const request: QuestionRequest = {
    id: randomUUID(),
    sessionId,
    toolUseId,
    question: question.question,
    options: question.options,
    allowText: question.allowText || question.options.length === 0,
    createdAt: nowIso(),
  };
  return {
    events: [
      { type: 'run_state', sessionId, state: { status: 'awaiting_question', requestId: request.id } },
      { type: 'question_requested', sessionId, request },
    ],
  };
}
