import { useWaypoint } from '../../store/store-context';
import { QuestionPrompt } from './QuestionPrompt';

/** The current chat's question from Claude, if any (main holds it: it comes back after a reload). */
export function PendingQuestion({ sessionId }: { sessionId: string | null }) {
  const request = useWaypoint((s) => (sessionId ? (s.questions[sessionId] ?? null) : null));
  const answerQuestion = useWaypoint((s) => s.answerQuestion);
  if (!sessionId || !request) return null;
  return <QuestionPrompt key={request.id} request={request} onAnswer={(answer) => answerQuestion(sessionId, request.id, answer)} />;
}
