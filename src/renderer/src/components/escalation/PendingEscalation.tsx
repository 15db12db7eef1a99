import { stepLabel } from '../../plan/plan-tree';
import { useWaypoint } from '../../store/store-context';
import { EscalationPrompt } from './EscalationPrompt';

/** The current chat's pending escalation, if any (after a reload it comes back: main holds it). */
export function PendingEscalation({ sessionId }: { sessionId: string | null }) {
  const request = useWaypoint((s) => (sessionId ? (s.escalations[sessionId] ?? null) : null));
  const step = useWaypoint((s) => (sessionId && request ? s.plans[sessionId]?.steps.find((x) => x.id === request.stepId) : undefined));
  const answerEscalation = useWaypoint((s) => s.answerEscalation);
  if (!sessionId || !request) return null;
  return (
    <EscalationPrompt
      key={request.id}
      request={request}
      stepLabel={step ? stepLabel(step) : null}
      onAnswer={(answer) => answerEscalation(sessionId, request.id, answer)}
    />
  );
}
