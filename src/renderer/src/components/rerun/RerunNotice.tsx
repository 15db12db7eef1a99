import type { RerunItem } from '../../../../shared/transcript';
import { useWaypoint } from '../../store/store-context';
import './rerun.css';

const list = (paths: string[]) => paths.join(', ');

/**
 * Where the chat was rerun from an edited message or a retried reply: what it replaced is kept as
 * another chat, one click away, and the files the replaced turns changed are named.
 */
export function RerunNotice({ item }: { item: RerunItem }) {
  const openSession = useWaypoint((s) => s.openSession);
  const exists = useWaypoint((s) => s.sessions.some((x) => x.id === item.earlier.chatId));
  return (
    <div className="rerun-notice" role="note">
      <p>
        <strong>{item.how === 'edit' ? 'Edited and rerun from here.' : 'Reply retried.'}</strong>{' '}
        {exists ? <>What it replaced is kept in “<span data-find>{item.earlier.title}</span>”. </> : <>The earlier version was deleted. </>}
        {item.restored?.length ? <>Put back: {list(item.restored)}. </> : null}
        {item.changed?.length ? <>Left as the replaced turns changed them: {list(item.changed)} (“Undo plan” in the earlier version puts them back).</> : null}
      </p>
      {exists && (
        <button type="button" className="link-button" onClick={() => void openSession(item.earlier.chatId)}>
          Open earlier version
        </button>
      )}
    </div>
  );
}
