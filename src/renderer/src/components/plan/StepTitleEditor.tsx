import { useState } from 'react';

/**
 * "Rename": the title becomes textbox "Step title" (docs/contract.md §5). Enter saves, Escape (or
 * leaving the box) cancels; a refused title keeps the box open with the panel saying why.
 */
export function StepTitleEditor({ title, onSave, onDone }: { title: string; onSave(title: string): Promise<boolean>; onDone(): void }) {
  const [value, setValue] = useState(title);
  const [saving, setSaving] = useState(false);
  return (
    <input className="plan-step-title-input" aria-label="Step title" autoFocus value={value} readOnly={saving}
      onFocus={(event) => event.currentTarget.select()}
      onChange={(event) => setValue(event.target.value)}
      onBlur={() => {
        if (!saving) onDone();
      }}
      onKeyDown={async (event) => {
        if (event.key === 'Escape') {
          event.preventDefault();
          event.stopPropagation();
          onDone();
        }
        if (event.key !== 'Enter' || event.nativeEvent.isComposing) return;
        event.preventDefault();
        setSaving(true);
        const saved = await onSave(value);
        setSaving(false);
        if (saved) onDone();
      }} />
  );
}
