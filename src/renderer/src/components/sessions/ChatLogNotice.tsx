import { useWaypoint } from '../../store/store-context';
import { formatCount } from '../../../../shared/numbers';

/**
 * When a chat's log could not be read whole: a damaged chat opens read-only with what could be
 * read (no composer), and says why; skipped lines are counted. "Export chat" saves what could be read,
 * through the same export as the chat list (main's, with attachments).
 */
export function ChatLogNotice() {
  const session = useWaypoint((s) => s.sessions.find((x) => x.id === s.currentSessionId));
  const exportChat = useWaypoint((s) => s.exportChat);
  const setLastError = useWaypoint((s) => s.setLastError);
  if (!session || (!session.damaged && !session.skippedLines)) return null;
  const skipped = session.skippedLines ?? 0;
  return (
    <section className="banner banner--warning chat-log-notice" aria-label="Chat log problems">
      <p>
        {session.damaged && <>This chat&apos;s log is damaged ({session.damaged}), so it opens read-only with what could be read. </>}
        {skipped > 0 && (
          <>
            {formatCount(skipped)} {skipped === 1 ? 'line' : 'lines'} of its log could not be read and {skipped === 1 ? 'was' : 'were'} skipped.
          </>
        )}
      </p>
      <button type="button" className="btn" onClick={() => void exportChat(session.id).then((result) => !result.ok && setLastError(result.message))}>
        Export chat
      </button>
    </section>
  );
}
