import { useWaypoint } from '../../store/store-context';
import { ApprovalPrompt } from './ApprovalPrompt';

/** The current chat's pending approval, if any (it comes back after a reload: main holds it). */
export function PendingApproval({ sessionId }: { sessionId: string | null }) {
  const request = useWaypoint((s) => (sessionId ? (s.approvals[sessionId] ?? null) : null));
  const answerApproval = useWaypoint((s) => s.answerApproval);
  if (!sessionId || !request) return null;
  return (
    <ApprovalPrompt
      key={request.id}
      request={request}
      onAnswer={(decision) => answerApproval(sessionId, request.id, decision)}
    />
  );
}
