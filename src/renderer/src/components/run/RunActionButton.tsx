import { useState } from 'react';

/**
 * The one button under a run's notice ("Retry now", "Continue"): it starts the action once and
 * stays disabled until the call is answered, so a double click never sends twice.
 */
export function RunActionButton({ label, onAct }: { label: string; onAct(): Promise<unknown> }) {
  const [busy, setBusy] = useState(false);
  return (
    <div className="retry-now">
      <button
        type="button"
        className="btn btn--small btn--primary"
        disabled={busy}
        onClick={async () => {
          setBusy(true);
          await onAct();
          setBusy(false);
        }}
      >
        {label}
      </button>
    </div>
  );
}
