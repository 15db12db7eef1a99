import { useState } from 'react';
import { useWaypoint } from '../../store/store-context';

/** "Retry reply" on the last reply: asks again with the same message; the new reply replaces this one. */
export function RetryReplyButton({ sessionId }: { sessionId: string }) {
  const retryReply = useWaypoint((s) => s.retryReply);
  const [busy, setBusy] = useState(false);
  return (
    <div className="msg-tools msg-tools--reply">
      <button
        type="button"
        className="msg-tool"
        disabled={busy}
        onClick={() => {
          setBusy(true);
          void retryReply(sessionId).finally(() => setBusy(false));
        }}
      >
        Retry reply
      </button>
    </div>
  );
}
