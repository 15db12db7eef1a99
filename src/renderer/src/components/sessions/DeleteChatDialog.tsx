import { useWaypoint } from '../../store/store-context';
import { ConfirmDialog } from './ConfirmDialog';

/** The confirmation before a chat is deleted for good (its folder on disk goes with it). */
export function DeleteChatDialog() {
  const pending = useWaypoint((s) => s.pendingDelete);
  const title = useWaypoint((s) => s.sessions.find((x) => x.id === s.pendingDelete)?.title);
  if (!pending) return null;
  return <Dialog title={title ?? 'this chat'} />;
}

function Dialog({ title }: { title: string }) {
  const confirm = useWaypoint((s) => s.confirmDelete);
  const cancel = useWaypoint((s) => s.requestDelete);
  return (
    <ConfirmDialog title="Delete chat?" action="Delete" onConfirm={() => void confirm()} onCancel={() => cancel(null)}>
      <p>“{title}” and its messages and plan will be removed from this computer. This cannot be undone.</p>
    </ConfirmDialog>
  );
}
