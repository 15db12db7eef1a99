import { type FormEvent, type KeyboardEvent, useId, useState } from 'react';
import { estimatePlanCostUsd, REQUESTS_PER_STEP } from '../../../../shared/budget';
import type { Plan } from '../../../../shared/plan';
import { useWaypoint } from '../../store/store-context';

/**
 * Plan first (docs/contract.md §5): Claude's proposal waits for the user, inside the "Task plan" region.
 * "Approve plan" starts the work; "Revise plan" opens "Plan feedback" and "Send feedback". Both
 * name the version on screen, so a click on a proposal Claude has since revised is refused.
 * While Claude is still writing the proposal the buttons wait (nothing can be sent mid-run).
 */
export function PlanProposal({ plan, sessionId }: { plan: Plan; sessionId: string }) {
  const working = useWaypoint((s) => (s.runStates[sessionId]?.status ?? 'idle') !== 'idle');
  const reviewPlan = useWaypoint((s) => s.reviewPlan);
  const [revising, setRevising] = useState(false);
  const [feedback, setFeedback] = useState('');
  const [sending, setSending] = useState(false);
  const formId = useId();
  const busy = working || sending;
  const feedbackShown = plan.review?.state === 'proposed' ? plan.review.feedback : undefined;
  const estimate = useWaypoint((s) => {
    const chat = s.sessions.find((x) => x.id === sessionId);
    return chat ? estimatePlanCostUsd(plan, chat) : null;
  });

  const answer = async (decision: Parameters<typeof reviewPlan>[1]) => {
    setSending(true);
    const result = await reviewPlan(sessionId, decision);
    setSending(false);
    if (result.ok) {
      setRevising(false);
      setFeedback('');
    }
  };
  const send = (event?: FormEvent) => {
    event?.preventDefault();
    if (feedback.trim() && !busy) void answer({ kind: 'revise', feedback });
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key !== 'Enter' || event.shiftKey || event.nativeEvent.isComposing) return;
    event.preventDefault();
    send();
  };

  return (
    <div className="task-plan-proposal">
      <p className="task-plan-proposal-text">
        {working
          ? 'Claude is writing this proposal…'
          : 'Claude proposes this plan. Nothing in your files changes until you approve it; you can edit its steps first.'}
      </p>
      {estimate !== null && (
        <p className="task-plan-proposal-estimate">
          Estimated cost: ${estimate.toFixed(2)} (about {plan.estimatedToolCalls ?? plan.steps.length * REQUESTS_PER_STEP} requests at this chat's cost per request so far)
        </p>
      )}
      {feedbackShown && !working && <p className="task-plan-proposal-feedback">Your last feedback: {feedbackShown.text}</p>}
      <div className="task-plan-proposal-actions">
        <button type="button" className="btn btn--primary btn--small" disabled={busy} onClick={() => void answer({ kind: 'approve' })}>
          Approve plan
        </button>
        <button type="button" className="btn btn--small" aria-expanded={revising} aria-controls={revising ? formId : undefined} disabled={busy}
          onClick={() => setRevising((open) => !open)}>
          Revise plan
        </button>
      </div>
      {revising && (
        <form id={formId} className="task-plan-feedback" onSubmit={send}>
          <label htmlFor={`${formId}-text`}>Plan feedback</label>
          <textarea id={`${formId}-text`} rows={2} autoFocus value={feedback} placeholder="What should Claude change in the plan?"
            onChange={(event) => setFeedback(event.target.value)} onKeyDown={onKeyDown} />
          <button type="submit" className="btn btn--small" disabled={busy || !feedback.trim()}>
            Send feedback
          </button>
        </form>
      )}
    </div>
  );
}
