import type { StepAttempt } from '../../../../shared/plan';

const words = (s: string) => s.replace(/_/g, ' ');

/** A step's recovery history, oldest first: what was tried, how it failed, what was decided. */
export function AttemptList({ attempts, heading }: { attempts: readonly StepAttempt[]; heading: string }) {
  return (
    <div className="attempts">
      <p className="escalation-label">{heading}</p>
      <ol className="attempt-list">
        {attempts.map((attempt, i) => (
          <li key={`${attempt.at}-${i}`}>
            <code>{attempt.tool}</code> {attempt.inputSummary && <span className="attempt-input">({attempt.inputSummary})</span>} —{' '}
            {attempt.error.split('\n')[0]}
            <span className="muted">
              {' '}
              [{words(attempt.errorClass)} → {words(attempt.strategy)}; {attempt.outcome}; {Math.round(attempt.durationMs)} ms]
            </span>
          </li>
        ))}
      </ol>
    </div>
  );
}
