import { withRequiredModels } from '../../../../shared/model-names';
import type { ModelInfo } from '../../store/types';

interface Props {
  id: string;
  value: string;
  models: ModelInfo[];
  onChange(model: string): void;
  /** The hint under the picker (the model's window and output cap). */
  describedBy?: string;
  /** Its name when no <label> names it (the chat header's "Chat model"). */
  label?: string;
  className?: string;
}

/**
 * The model picker: each model by its display name (the id only tells apart two with the same
 * name); the current model stays selectable even when the list doesn't have it.
 */
export function ModelSelect({ id, value, models, onChange, describedBy, label, className }: Props) {
  const options = withRequiredModels(models, [value]);
  const shared = (name: string) => options.filter((model) => model.displayName === name).length > 1;
  return (
    <select id={id} className={className} value={value} aria-label={label} aria-describedby={describedBy} onChange={(event) => onChange(event.target.value)}>
      {options.map((model) => (
        <option key={model.id} value={model.id} title={model.id}>
          {shared(model.displayName) ? `${model.displayName} (${model.id})` : model.displayName}
        </option>
      ))}
    </select>
  );
}
