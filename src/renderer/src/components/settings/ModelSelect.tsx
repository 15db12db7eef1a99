import type { ModelInfo } from '../../store/types';

interface Props {
  id: string;
  value: string;
  models: ModelInfo[];
  onChange(model: string): void;
}

/** The model picker; the current model stays selectable even when the list doesn't have it. */
export function ModelSelect({ id, value, models, onChange }: Props) {
  const options = models.some((model) => model.id === value) || !value ? models : [{ id: value, displayName: value }, ...models];
  return (
    <select id={id} value={value} onChange={(event) => onChange(event.target.value)}>
      {options.map((model) => (
        <option key={model.id} value={model.id}>
          {model.displayName === model.id ? model.id : `${model.displayName} (${model.id})`}
        </option>
      ))}
    </select>
  );
}
