import type { ChatWriter } from '../../../../shared/chat-writer';
import { useWaypoint } from '../../store/store-context';

/**
 * A chat another Waypoint process writes, shown after a change was refused for that: who writes it
 * and since when. "Take over" is offered only when that process cannot be checked from here
 * (another computer's, or an older Waypoint's lock whose pid runs); a process verifiably running
 * here is waited for or stopped there.
 */
export function ChatWriterNotice() {
  const sessionId = useWaypoint((s) => s.currentSessionId);
  const writer = useWaypoint((s) => (s.currentSessionId ? (s.chatWriters[s.currentSessionId] ?? null) : null));
  const requestTakeOver = useWaypoint((s) => s.requestTakeOver);
  if (!sessionId || !writer) return null;
  return (
    <section className="banner banner--warning chat-writer-notice" aria-label="Written by another process">
      <p>
        {describeWriter(writer)}{' '}
        {writer.state === 'running'
          ? 'Wait until it finishes, or stop it there.'
          : writer.state === 'other_host'
            ? `Waypoint cannot check from here whether it still runs on ${writer.host}.`
            : 'Waypoint cannot tell whether that process is still the one that took the chat.'}
      </p>
      {writer.state !== 'running' && (
        <button type="button" className="btn" onClick={() => requestTakeOver(sessionId)}>
          Take over
        </button>
      )}
    </section>
  );
}

/** "This chat is being written by waypoint run (pid 4242 on laptop.local) since 27 Nov, 09:50." */
export function describeWriter(writer: ChatWriter): string {
  const since = new Date(writer.since);
  const when = Number.isNaN(since.getTime()) ? writer.since : since.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
  return `This chat is being written by ${writer.holder} (pid ${writer.pid} on ${writer.host}) since ${when}.`;
}
