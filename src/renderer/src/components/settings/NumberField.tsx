import type { RefObject } from 'react';
import { limitsText, type NumberLimits } from './settings-validation';

interface Props {
  id: string;
  label: string;
  limits: NumberLimits;
  value: string;
  /** Why the value can't be saved, in words; shown right under the field. */
  error: string | undefined;
  inputRef?: RefObject<HTMLInputElement | null>;
  onChange(value: string): void;
  /** What the setting does, shown above its limits. */
  hint?: string;
}

/** A number setting with its limits in view and its own error beside it (aria-invalid + describedby). */
export function NumberField({ id, label, limits, value, error, inputRef, onChange, hint }: Props) {
  const describedBy = error ? `${id}-limits ${id}-error` : `${id}-limits`;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        ref={inputRef}
        id={id}
        type="number"
        inputMode="numeric"
        min={limits.min}
        max={limits.max}
        step={limits.step}
        value={value}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
        onChange={(e) => onChange(e.target.value)}
      />
      <p id={`${id}-limits`} className="hint">
        {hint ? `${hint} ` : ''}
        {limitsText(limits)}
      </p>
      {error && (
        <p id={`${id}-error`} className="field-error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
