import { type FormEvent, useId, useState } from 'react';
import { parseBudgetField, spendOfBudget, type BudgetAnswer, type BudgetPrompt } from '../../../../shared/budget';
import type { ActionResult } from '../../store/types';
import { PromptActions } from '../prompt/PromptActions';
import { PromptDialog } from '../prompt/PromptDialog';
import './budget.css';

interface Props {
  /** The stop the plan awaits an answer to (shared/budget.ts `budgetPromptOf`). */
  request: BudgetPrompt;
  /** Sends the answer; a refusal's words are shown here. */
  onAnswer(answer: BudgetAnswer): Promise<ActionResult>;
}

/**
 * "Budget reached" (docs/contract.md §9): the plan's run stopped before a request that would pass
 * its budget. Standalone (the request and an answer callback), so the chat's plan panel and the
 * "Needs you" dialog render the same buttons: "Extend budget" (the budget once more, or the figure
 * in "New budget (USD)") and "End plan" (the plan ends partly done; Claude is not asked again).
 */
export function BudgetReachedPrompt({ request, onAnswer }: Props) {
  const id = useId();
  const [figure, setFigure] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const { reached } = request;
  const spent = request.usd !== undefined ? spendOfBudget(reached.spentUsd, request.usd) : `$${reached.spentUsd.toFixed(2)}`;
  const what =
    reached.limit === 'time'
      ? `This plan has run ${Math.round(reached.elapsedMinutes)} of its ${request.minutes ?? 0} minutes (${spent} spent).`
      : `Spent ${spent}. The next request (about $${reached.estimateUsd.toFixed(2)}) would pass the budget, so it was not sent.`;

  const send = async (answer: BudgetAnswer) => {
    setSending(true);
    const result = await onAnswer(answer);
    setSending(false);
    setError(result.ok ? null : result.message);
  };
  const extend = (event: FormEvent) => {
    event.preventDefault();
    const parsed = parseBudgetField(figure, 'usd');
    if (!parsed.ok) return setError(parsed.error);
    if (parsed.value !== null && parsed.value <= reached.spentUsd) return setError(`The new budget must be more than the $${reached.spentUsd.toFixed(2)} this plan has spent.`);
    void send(parsed.value === null ? { kind: 'extend' } : { kind: 'extend', usd: parsed.value });
  };

  return (
    <PromptDialog requestId={request.requestId} className="prompt-card budget-reached" labelledBy={`${id}-title`} describedBy={`${id}-what`}>
      <h3 id={`${id}-title`} className="prompt-card-title">
        Budget reached
      </h3>
      <p id={`${id}-what`}>{what}</p>
      <form className="budget-reached-form" onSubmit={extend} noValidate>
        <label htmlFor={`${id}-figure`}>New budget (USD)</label>
        <input id={`${id}-figure`} type="text" inputMode="decimal" value={figure} placeholder="Empty: once more"
          aria-invalid={error ? true : undefined} aria-describedby={error ? `${id}-error` : undefined}
          onChange={(event) => setFigure(event.target.value)} />
        <PromptActions className="budget-reached-actions" submit="Extend budget" busy={sending} small actions={[{ label: 'End plan', onClick: () => void send({ kind: 'end' }) }]} />
      </form>
      {error && (
        <p id={`${id}-error`} role="alert" className="budget-error">
          {error}
        </p>
      )}
    </PromptDialog>
  );
}
