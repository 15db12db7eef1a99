import { useEffect, useId, useRef } from 'react';
import type { CardStep, PlanCompletionItem } from '../../../../shared/transcript';
import { CompletedPlanUndo } from './CompletedPlanUndo';
import { cardTitle, countsText, goalCheckTitle, undoneText } from './plan-completion-text';
import { STATUS_TEXT } from '../../plan/plan-tree';

/**
 * A finished plan's card: Claude's complete_plan summary, or Waypoint's when Claude wrote none.
 * It stays in the chat after the panel hides (docs/contract.md §5), and says so once the plan is undone.
 */
export function PlanCompletionCard({ item }: { item: PlanCompletionItem }) {
  const { completion, undone } = item;
  const title = cardTitle(item);
  const heading = useRef<HTMLHeadingElement>(null);
  // Undo from the plan panel hides the panel with the button that had focus: land here instead.
  // The virtualised transcript hides a new row until it is measured, and a hidden heading takes
  // no focus: wait until it is shown (two frames: measured, then laid out visible).
  useEffect(() => {
    if (!undone) return;
    let frame = requestAnimationFrame(() => {
      frame = requestAnimationFrame(() => {
        if (document.activeElement === document.body) heading.current?.focus();
      });
    });
    return () => cancelAnimationFrame(frame);
  }, [undone]);
  return (
    <section className={`plan-done plan-done--${undone ? 'undone' : item.planStatus === 'cancelled' ? 'failed' : completion.status}`} aria-label={title}>
      <h3 className="plan-done-title" ref={heading} tabIndex={-1}>
        {title}
      </h3>
      <p className="plan-done-goal" data-find>{item.goal}</p>
      <p data-find>{completion.summary}</p>
      {undone ? (
        <p className="plan-done-undone">{undoneText(undone)}</p>
      ) : (
        <p className="plan-done-counts">{countsText(item)}</p>
      )}
      {item.steps && item.steps.length > 0 && <CardSteps steps={item.steps} />}
      {item.goalCheck && <GoalCheckResult check={item.goalCheck} />}
      {completion.issues.length > 0 && (
        <>
          <h4>Issues</h4>
          <ul>
            {completion.issues.map((issue, i) => (
              <li key={i}>{issue}</li>
            ))}
          </ul>
        </>
      )}
      {completion.recommendations && (
        <>
          <h4>Recommendations</h4>
          <p>{completion.recommendations}</p>
        </>
      )}
      {item.by === 'waypoint' && <p className="plan-done-by">Summary by Waypoint: Claude did not write one.</p>}
      <CompletedPlanUndo item={item} />
    </section>
  );
}

/** The goal check's verdict on this completion, with what it found (docs/contract.md §9). */
function GoalCheckResult({ check }: { check: NonNullable<PlanCompletionItem['goalCheck']> }) {
  const headingId = useId();
  return (
    <div className={`plan-done-goal-check plan-done-goal-check--${check.outcome}`}>
      <h4 id={headingId}>{goalCheckTitle(check)}</h4>
      {check.outcome === 'failed' && check.error && <p>{check.error}</p>}
      {check.findings.length > 0 && (
        <ul aria-labelledby={headingId}>
          {check.findings.map((finding, i) => (
            <li key={i}>{finding}</li>
          ))}
        </ul>
      )}
      {check.reopened && <p>The plan was reopened with a "Fix" step for each finding, and Claude was told.</p>}
      {check.noProgress && <p>The same findings as the previous check: no further round.</p>}
    </div>
  );
}

/** The plan's steps as they ended: the panel hides with the plan, so the card keeps what it showed. */
function CardSteps({ steps }: { steps: readonly CardStep[] }) {
  const headingId = useId();
  return (
    <>
      <h4 id={headingId}>Steps</h4>
      <ol className="plan-done-steps" aria-labelledby={headingId}>
        {steps.map((step) => (
          <li key={step.number} data-status={step.status} className={`plan-done-step plan-step--${step.status}`}>
            <span className="plan-done-step-head">
              {step.number}. {step.title} <span className="plan-done-step-status">({STATUS_TEXT[step.status]})</span>
            </span>
            {step.result && <span className="plan-done-step-result">{step.result}</span>}
          </li>
        ))}
      </ol>
    </>
  );
}
