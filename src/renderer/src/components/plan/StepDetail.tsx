import type { PlanStep, StepToolCall } from '../../../../shared/plan';
import { formatUsd } from '../../../../shared/usage';

/** True when a step has anything worth expanding beyond its title. */
export function hasDetail(step: PlanStep): boolean {
  return !!(
    (step.description && step.description !== step.title) ||
    step.successCriteria ||
    step.result ||
    step.reason ||
    step.priority ||
    step.toolsToUse?.length ||
    step.notes.length ||
    step.attempts.length ||
    step.calls?.length
  );
}

export function StepDetail({ step, id }: { step: PlanStep; id: string }) {
  return (
    <dl className="plan-step-detail" id={id}>
      {/* The id never changes and is what Claude's words use ("step 6"), whatever the position. */}
      <Field term="Step id" value={String(step.id)} />
      {step.description && step.description !== step.title && <Field term="Description" value={step.description} />}
      {step.priority && <Field term="Priority" value={step.priority} />}
      {step.successCriteria && <Field term="Success criteria" value={step.successCriteria} />}
      {step.toolsToUse?.length ? <Field term="Tools" value={step.toolsToUse.join(', ')} /> : null}
      {step.result && <Field term="Result" value={step.result} />}
      {step.reason && <Field term="Reason" value={step.reason} />}
      {step.notes.length > 0 && (
        <>
          <dt>Notes</dt>
          <dd>
            <ul>
              {step.notes.map((note, i) => (
                <li key={i}>{note}</li>
              ))}
            </ul>
          </dd>
        </>
      )}
      {step.calls?.length ? (
        <>
          <dt>Tool calls</dt>
          <dd>
            <ol className="plan-calls">
              {step.calls.map((call, i) => (
                <li key={i}>
                  {call.summary} <span className="muted">({callFacts(call)})</span>
                </li>
              ))}
            </ol>
          </dd>
        </>
      ) : null}
      {step.attempts.length > 0 && (
        <>
          <dt>Attempts</dt>
          <dd>
            <ol className="plan-attempts">
              {step.attempts.map((attempt, i) => (
                <li key={i}>
                  <span className="plan-attempt-tool">{attempt.tool}</span> — {attempt.error}{' '}
                  <span className="muted">
                    ({attempt.errorClass.replace(/_/g, ' ')}; {attempt.strategy.replace(/_/g, ' ')}; {attempt.outcome};{' '}
                    {Math.round(attempt.durationMs)} ms)
                  </span>
                </li>
              ))}
            </ol>
          </dd>
        </>
      )}
    </dl>
  );
}

/** "14:02:31; 1.2 s; $0.01; failed": when it ran, how long, its share of the cost, how it ended. */
function callFacts(call: StepToolCall): string {
  const time = new Date(call.at).toLocaleTimeString();
  const took = call.durationMs < 1000 ? `${Math.round(call.durationMs)} ms` : `${(call.durationMs / 1000).toFixed(1)} s`;
  return [time, took, call.costUsd === undefined ? '' : formatUsd(call.costUsd), call.ok ? '' : 'failed'].filter(Boolean).join('; ');
}

function Field({ term, value }: { term: string; value: string }) {
  return (
    <>
      <dt>{term}</dt>
      <dd>{value}</dd>
    </>
  );
}
