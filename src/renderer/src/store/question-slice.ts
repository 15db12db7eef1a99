import type { QuestionRequest } from '../../../shared/prompts';
import { answerPending, resolvePending, setPending } from './prompt-slots';
import type { ActionResult, SliceCreator } from './types';

export const QUESTION_ALREADY_ANSWERED = 'That question was already answered (in another window?) or cancelled: nothing changed.';

/** Claude's questions (ask_user), one pending per chat; main holds them, so they come back after a reload. */
export interface QuestionSlice {
  questions: Record<string, QuestionRequest | null>;
  setQuestion(sessionId: string, request: QuestionRequest | null): void;
  resolveQuestion(sessionId: string, requestId: string): void;
  answerQuestion(sessionId: string, requestId: string, answer: string): Promise<ActionResult>;
}

export const createQuestionSlice: SliceCreator<QuestionSlice> = (set, get, api) => ({
  questions: {},
  setQuestion: (sessionId, request) => setPending(set, 'questions', sessionId, request),
  resolveQuestion: (sessionId, requestId) => resolvePending(set, get, 'questions', sessionId, requestId),
  answerQuestion: (sessionId, requestId, answer) =>
    answerPending(set, get, 'questions', sessionId, requestId, () => api.call('answerQuestion', { sessionId, requestId, answer }), { stale: QUESTION_ALREADY_ANSWERED, refusalShownByCaller: true }),
});
