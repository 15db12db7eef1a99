import { isAwaitingApproval } from '../../../../shared/plan';
import { useWaypoint } from '../../store/store-context';
import { PlanProposal } from '../plan/PlanProposal';
import { PlanRefusal } from '../plan/PlanRefusal';

/**
 * A plan proposal as the "Needs you" dialog shows it: the plan's top steps (in the chat the panel
 * shows them) and the chat's own proposal controls, with a refusal (a stale version) said under them.
 */
export function ProposedPlan({ sessionId }: { sessionId: string }) {
  const plan = useWaypoint((s) => s.plans[sessionId]);
  if (!isAwaitingApproval(plan)) return null;
  return (
    <div className="needs-you-plan">
      <ol className="needs-you-plan-steps">
        {plan.steps
          .filter((step) => step.parentId === undefined)
          .map((step) => (
            <li key={step.id}>{step.title}</li>
          ))}
      </ol>
      <PlanProposal plan={plan} sessionId={sessionId} />
      <PlanRefusal sessionId={sessionId} />
    </div>
  );
}
