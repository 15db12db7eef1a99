import { useId, useState } from 'react';
import { useWaypoint } from '../../store/store-context';
import { ConfirmDialog } from './ConfirmDialog';

/** The confirmation before a chat is deleted for good (its folder on disk goes with it). */
export function DeleteChatDialog() {
  const pending = useWaypoint((s) => s.pendingDelete);
  const title = useWaypoint((s) => s.sessions.find((x) => x.id === s.pendingDelete)?.title);
  const branch = useWaypoint((s) => s.sessions.find((x) => x.id === s.pendingDelete)?.worktree?.branch ?? null);
  if (!pending) return null;
  return <Dialog title={title ?? 'this chat'} branch={branch} />;
}

/** A chat in its own git worktree loses the worktree too; its branch can be kept (with the work committed on it). */
function Dialog({ title, branch }: { title: string; branch: string | null }) {
  const confirm = useWaypoint((s) => s.confirmDelete);
  const cancel = useWaypoint((s) => s.requestDelete);
  const [keep, setKeep] = useState(false);
  const id = useId();
  return (
    <ConfirmDialog title="Delete chat?" action="Delete" onConfirm={() => void confirm(keep)} onCancel={() => cancel(null)}>
      <p>“{title}” and its messages and plan will be removed from this computer. This cannot be undone.</p>
      {branch && (
        <>
          <p>Its git worktree goes too, and its branch {branch} unless that is merged.</p>
          <div className="field field--check">
            <input id={id} type="checkbox" checked={keep} onChange={(e) => setKeep(e.target.checked)} />
            <label htmlFor={id}>Keep branch {branch}</label>
          </div>
        </>
      )}
    </ConfirmDialog>
  );
}
