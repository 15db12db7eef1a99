import { useState } from 'react';
import { useWaypoint } from '../../store/store-context';

/** "Retry reply" on the last reply (among its tools): asks again with the same message; the new reply replaces this one. */
export function RetryReplyButton({ sessionId }: { sessionId: string }) {
  const retryReply = useWaypoint((s) => s.retryReply);
  const [busy, setBusy] = useState(false);
  return (
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
  );
}
