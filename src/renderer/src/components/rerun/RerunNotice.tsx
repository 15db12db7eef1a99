import type { RerunItem } from '../../../../shared/transcript';
import { useWaypoint } from '../../store/store-context';
import './rerun.css';

const list = (paths: string[]) => paths.join(', ');

/**
 * Where the chat was rerun from an edited message or a retried reply, naming the files the
 * replaced turns changed. What it replaced is another version of the message ("Previous
 * version"); in chats saved by older versions it is another chat, one click away.
 */
export function RerunNotice({ item }: { item: RerunItem }) {
  const openSession = useWaypoint((s) => s.openSession);
  const earlier = item.earlier;
  const exists = useWaypoint((s) => !!earlier && s.sessions.some((x) => x.id === earlier.chatId));
  const undoWhere = earlier ? 'in the earlier version' : 'in the replaced version';
  return (
    <div className="rerun-notice" role="note">
      <p>
        <strong>{item.how === 'edit' ? 'Edited and rerun from here.' : 'Reply retried.'}</strong>{' '}
        {earlier && (exists ? <>What it replaced is kept in “<span data-find>{earlier.title}</span>”. </> : <>The earlier version was deleted. </>)}
        {item.restored?.length ? <>Put back: {list(item.restored)}. </> : null}
        {item.changed?.length ? <>Left as the replaced turns changed them: {list(item.changed)} (“Undo plan” {undoWhere} puts them back).</> : null}
      </p>
      {earlier && exists && (
        <button type="button" className="link-button" onClick={() => void openSession(earlier.chatId)}>
          Open earlier version
        </button>
      )}
    </div>
  );
}
