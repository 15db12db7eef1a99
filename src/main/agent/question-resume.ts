import type { QuestionRequest } from '../../shared/prompts';
import type { ResumablePrompt } from './prompt-resume';

/**
 * A question from Claude answered after a restart (it came back with the chat's log): the answer
 * is the held ask_user call's tool_result, verbatim, as a live run would send it; the caller then
 * starts a new run.
 */
export function questionAfterRestart(): ResumablePrompt<QuestionRequest, string> {
  return {
    pending: (session) => session.pendingQuestion,
    canResume: (request, open) => open.includes(request.toolUseId),
    async settle({ session, request, answer, publish }) {
      const sessionId = session.summary.id;
      publish({ type: 'question_resolved', sessionId, requestId: request.id, outcome: 'answered' });
      const card = session.toolCall(request.toolUseId);
      if (card) publish({ type: 'transcript_item', sessionId, item: { ...card, status: 'done', result: answer } });
      return { content: answer, isError: false, halt: false };
    },
  };
}
