import { useWaypoint } from '../../store/store-context';
import { Icon } from '../icons/Icon';

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
      {/* An icon, like Instructions and Find: the header keeps one row down to 800 px wide. */}
      <button type="button" className="btn btn--icon" aria-label="Changes" title="Changes: the files this chat changed" aria-expanded={open}
        onClick={() => toggle(open ? null : sessionId)}>
        <Icon name="diff" />
      </button>
    </>
  );
}
