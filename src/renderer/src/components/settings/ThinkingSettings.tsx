import type { RefObject } from 'react';
import { modelDisplayName } from '../../../../shared/model-names';
import { EFFORT_LABELS, type ThinkingEffort } from '../../../../shared/thinking';
import type { ModelInfo } from '../../store/types';
import { Check } from './Check';
import { NumberField } from './NumberField';
import { thinkingBudgetLimits } from './settings-validation';

interface Props {
  id: string;
  /** The chosen model as listed (with what thinking it takes), if it is listed. */
  model: ModelInfo | undefined;
  modelId: string;
  on: boolean;
  effort: ThinkingEffort;
  budget: string;
  budgetError: string | undefined;
  budgetRef: RefObject<HTMLInputElement | null>;
  onToggle(on: boolean): void;
  onEffort(effort: ThinkingEffort): void;
  onBudget(value: string): void;
}

/**
 * "Extended thinking" and, when on, what steers it for the chosen model: effort where the model
 * decides how much to think (adaptive), a token budget where it takes a fixed one.
 */
export function ThinkingSettings(props: Props) {
  const { id, model, on } = props;
  const support = model?.thinking;
  const name = modelDisplayName(props.modelId, model ? [model] : []);
  const thinks = !support || support.adaptive || support.enabled;
  const hint = thinks
    ? 'Claude thinks before it answers, from your next message on. Each reply’s thinking shows collapsed above it; thinking tokens are billed as output.'
    : `${name} does not think before it answers; this applies when you choose a model that does.`;
  return (
    <>
      <Check id={id} label="Extended thinking" checked={on} onChange={props.onToggle} hint={hint} />
      {on && support?.adaptive && support.efforts.length > 0 && (
        <div className="field">
          <label htmlFor={`${id}-effort`}>Thinking effort</label>
          <select
            id={`${id}-effort`}
            value={support.efforts.includes(props.effort) ? props.effort : 'high'}
            aria-describedby={`${id}-effort-hint`}
            onChange={(e) => props.onEffort(e.target.value as ThinkingEffort)}
          >
            {support.efforts.map((effort) => (
              <option key={effort} value={effort}>
                {EFFORT_LABELS[effort]}
              </option>
            ))}
          </select>
          <p id={`${id}-effort-hint`} className="hint">
            {name} decides how much to think; higher effort thinks more, and costs more.
          </p>
        </div>
      )}
      {on && (!support || (!support.adaptive && support.enabled)) && (
        <NumberField
          id={`${id}-budget`}
          label="Thinking budget (tokens)"
          limits={thinkingBudgetLimits(model)}
          value={props.budget}
          error={props.budgetError}
          inputRef={props.budgetRef}
          onChange={props.onBudget}
        />
      )}
    </>
  );
}
