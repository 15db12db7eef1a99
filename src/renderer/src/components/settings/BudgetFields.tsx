import type { RefObject } from 'react';
import { parseBudgetField } from '../../../../shared/budget';

/** The two budget fields as typed (empty: none). */
export interface BudgetDraft {
  planBudgetUsd: string;
  planBudgetMinutes: string;
}
export type BudgetErrors = Partial<Record<keyof BudgetDraft, string>>;

export function budgetDraftOf(settings: { planBudgetUsd: number | null; planBudgetMinutes: number | null }): BudgetDraft {
  return { planBudgetUsd: settings.planBudgetUsd === null ? '' : String(settings.planBudgetUsd), planBudgetMinutes: settings.planBudgetMinutes === null ? '' : String(settings.planBudgetMinutes) };
}

/** The figures to save, or each field's reason in words (0, negative or not a number). */
export function parseBudgetDraft(draft: BudgetDraft): { ok: true; patch: { planBudgetUsd: number | null; planBudgetMinutes: number | null } } | { ok: false; errors: BudgetErrors } {
  const usd = parseBudgetField(draft.planBudgetUsd, 'usd');
  const minutes = parseBudgetField(draft.planBudgetMinutes, 'minutes');
  if (usd.ok && minutes.ok) return { ok: true, patch: { planBudgetUsd: usd.value, planBudgetMinutes: minutes.value } };
  return { ok: false, errors: { ...(usd.ok ? {} : { planBudgetUsd: usd.error }), ...(minutes.ok ? {} : { planBudgetMinutes: minutes.error }) } };
}

interface Props {
  id: string;
  draft: BudgetDraft;
  errors: BudgetErrors;
  usdRef: RefObject<HTMLInputElement | null>;
  minutesRef: RefObject<HTMLInputElement | null>;
  onChange(key: keyof BudgetDraft, value: string): void;
}

/** Settings "Budget per plan (USD)" and "Time per plan (minutes)": a new plan's budget (docs/contract.md §9). */
export function BudgetFields({ id, draft, errors, usdRef, minutesRef, onChange }: Props) {
  const field = (key: keyof BudgetDraft, label: string, hint: string, ref: RefObject<HTMLInputElement | null>) => {
    const fieldId = `${id}-${key}`;
    const error = errors[key];
    return (
      <div className="field">
        <label htmlFor={fieldId}>{label}</label>
        <input ref={ref} id={fieldId} type="text" inputMode="decimal" value={draft[key]} aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${fieldId}-hint ${fieldId}-error` : `${fieldId}-hint`} onChange={(e) => onChange(key, e.target.value)} />
        <p id={`${fieldId}-hint`} className="hint">
          {hint}
        </p>
        {error && (
          <p id={`${fieldId}-error`} className="field-error" role="alert">
            {error}
          </p>
        )}
      </div>
    );
  };
  return (
    <>
      {field('planBudgetUsd', 'Budget per plan (USD)', 'A new plan pauses before a request that would spend more. Empty: no budget.', usdRef)}
      {field('planBudgetMinutes', 'Time per plan (minutes)', 'A new plan pauses once it has run this long. Empty: no limit.', minutesRef)}
    </>
  );
}
