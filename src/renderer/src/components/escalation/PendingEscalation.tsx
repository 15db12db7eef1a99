import { stepNumbers } from '../../plan/plan-tree';
import { useWaypoint } from '../../store/store-context';
import { EscalationPrompt } from './EscalationPrompt';

/** The current chat's pending escalation, if any (after a reload it comes back: main holds it). */
export function PendingEscalation({ sessionId }: { sessionId: string | null }) {
  const request = useWaypoint((s) => (sessionId ? (s.escalations[sessionId] ?? null) : null));
  const steps = useWaypoint((s) => (sessionId ? s.plans[sessionId]?.steps : undefined));
  const answerEscalation = useWaypoint((s) => s.answerEscalation);
  if (!sessionId || !request) return null;
  // Named as the panel numbers it; main's request carries the id.
  const number = request.stepId !== null && steps ? (stepNumbers(steps).get(request.stepId) ?? null) : null;
  return (
    <EscalationPrompt
      key={request.id}
      request={request}
      stepLabel={number}
      onAnswer={(answer) => answerEscalation(sessionId, request.id, answer)}
    />
  );
}
