import type { ChatWriter } from '../../../../shared/chat-writer';
import { useWaypoint } from '../../store/store-context';
import { describeWriter } from './ChatWriterNotice';
import { ConfirmDialog } from './ConfirmDialog';

/** The confirmation before this window takes over a chat another process may still write. */
export function TakeOverDialog() {
  const writer = useWaypoint((s) => (s.pendingTakeOver ? (s.chatWriters[s.pendingTakeOver] ?? null) : null));
  if (!writer) return null;
  return <Dialog writer={writer} />;
}

function Dialog({ writer }: { writer: ChatWriter }) {
  const confirm = useWaypoint((s) => s.confirmTakeOver);
  const cancel = useWaypoint((s) => s.requestTakeOver);
  return (
    <ConfirmDialog title="Take over this chat?" action="Take over" onConfirm={() => void confirm()} onCancel={() => cancel(null)}>
      <p>{describeWriter(writer)}</p>
      <p>
        Waypoint here will write this chat from now on. If {writer.holder} is still running, it notices, stops writing the chat and stops its run there; what it had not
        saved yet is not kept. The chat records who took it over from whom.
      </p>
    </ConfirmDialog>
  );
}
