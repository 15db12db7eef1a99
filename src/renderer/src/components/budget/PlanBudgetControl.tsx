import { type FormEvent, useId, useState } from 'react';
import { parseBudgetField, spendOfBudget } from '../../../../shared/budget';
import type { Plan } from '../../../../shared/plan';
import { useWaypoint } from '../../store/store-context';
import './budget.css';

/**
 * The plan's spend against its budget ("$S of $B", while one is set) and the button "Budget",
 * which shows "Budget (USD)" and "Save budget" for this plan (docs/contract.md §9). A figure below
 * the spend is taken: the run then stops at its next request.
 */
export function PlanBudgetControl({ plan, sessionId }: { plan: Plan; sessionId: string }) {
  const spent = useWaypoint((s) => s.sessions.find((x) => x.id === sessionId)?.planCosts?.[plan.id] ?? 0);
  const setPlanBudget = useWaypoint((s) => s.setPlanBudget);
  const [open, setOpen] = useState(false);
  const [figure, setFigure] = useState('');
  const [error, setError] = useState<string | null>(null);
  const id = useId();
  const usd = plan.budget?.usd;

  const save = async (event: FormEvent) => {
    event.preventDefault();
    const parsed = parseBudgetField(figure, 'usd');
    if (!parsed.ok || parsed.value === null) return setError(parsed.ok ? 'Type a budget in dollars, e.g. 2.50.' : parsed.error);
    const result = await setPlanBudget(sessionId, plan.id, parsed.value);
    if (result.ok) {
      setOpen(false);
      setFigure('');
      setError(null);
    } else setError(result.message);
  };

  return (
    <div className="plan-budget">
      {usd !== undefined && <span className="plan-budget-spend">{spendOfBudget(spent, usd)}</span>}
      <button type="button" className="btn btn--small" aria-expanded={open} aria-controls={open ? id : undefined}
        onClick={() => {
          setOpen((was) => !was);
          setFigure(usd !== undefined ? String(usd) : '');
          setError(null);
        }}>
        Budget
      </button>
      {open && (
        <form id={id} className="plan-budget-form" onSubmit={(event) => void save(event)} noValidate>
          <label htmlFor={`${id}-usd`}>Budget (USD)</label>
          <input id={`${id}-usd`} type="text" inputMode="decimal" autoFocus value={figure}
            aria-invalid={error ? true : undefined} aria-describedby={error ? `${id}-error` : undefined}
            onChange={(event) => setFigure(event.target.value)} />
          <button type="submit" className="btn btn--small">
            Save budget
          </button>
          {error && (
            <p id={`${id}-error`} role="alert" className="budget-error">
              {error}
            </p>
          )}
        </form>
      )}
    </div>
  );
}
