import { answerProblem, QuestionAnswer, type QuestionRequest } from '../../../shared/prompts';
import { QUESTION_CANCELLED } from '../../tools/ask-user';
import type { PauseKind } from './pause-kind';

/** A question from Claude (ask_user): the answer is the held call's tool_result, verbatim. */
export function questionKind(): PauseKind<QuestionRequest, string> {
  return {
    answer: QuestionAnswer,
    pending: (session) => session.pendingQuestion,
    problem: (request, answer) => answerProblem(request, answer),
    needsOpenCall: true,
    continues: () => true,
    async answered({ session, publish }, request, answer) {
      publish({ type: 'question_resolved', sessionId: session.summary.id, requestId: request.id, outcome: 'answered' });
      return { kind: 'result', content: answer, isError: false, halt: false, card: 'done' };
    },
    cancelled({ session, publish }, request) {
      publish({ type: 'question_resolved', sessionId: session.summary.id, requestId: request.id, outcome: 'cancelled' });
      return { kind: 'result', content: QUESTION_CANCELLED, isError: true, halt: false, card: 'error' };
    },
  };
}
