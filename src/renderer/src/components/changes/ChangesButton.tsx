import { useWaypoint } from '../../store/store-context';

/**
 * The header's "Changes" button (opens or closes the region for the chat in view) and, for a chat
 * in its own git worktree, the branch it works on.
 */
export function ChangesButton({ sessionId, branch }: { sessionId: string; branch: string | null }) {
  const open = useWaypoint((s) => s.changesFor === sessionId);
  const toggle = useWaypoint((s) => s.openChanges);
  return (
    <>
      {branch && (
        <span className="header-chip" title={`This chat works in its own git worktree on branch ${branch}`}>
          <span className="sr-only">Branch: </span>
          {branch}
        </span>
      )}
      <button type="button" className="btn" aria-expanded={open} onClick={() => toggle(open ? null : sessionId)}>
        Changes
      </button>
    </>
  );
}
