import { useState } from 'react';
import type { UserItem, VersionTag } from '../../../../shared/transcript';
import { useWaypoint } from '../../store/store-context';

export type VersionsOf = 'message' | 'reply';

/**
 * "N/M" with "Previous version" / "Next version" (docs/contract.md §5): which version of an edited
 * message (or of a retried reply) is shown, and the way to the others. While Claude works the
 * buttons are off: a run goes on in the version it started in (main refuses a switch too).
 */
export function VersionNav({ sessionId, item, of, locked }: { sessionId: string; item: UserItem; of: VersionsOf; locked: boolean }) {
  const showVersion = useWaypoint((s) => s.showVersion);
  const [busy, setBusy] = useState(false);
  const tag: VersionTag | undefined = of === 'message' ? item.version : item.replies;
  if (!tag || tag.count < 2) return null;
  const off = locked || busy;
  const go = (index: number) => {
    setBusy(true);
    void showVersion(sessionId, item.id, of, index).finally(() => setBusy(false));
  };
  const why = locked ? 'Claude is working: stop it first to see another version.' : undefined;
  return (
    <div className="version-nav" role="group" aria-label={of === 'message' ? 'Versions of this message' : 'Versions of this reply'}>
      <button type="button" className="version-step" aria-label="Previous version" title={why ?? 'Previous version'} disabled={off || tag.index === 0} onClick={() => go(tag.index - 1)}>
        ‹
      </button>
      <span className="version-count">
        {tag.index + 1}/{tag.count}
      </span>
      <button type="button" className="version-step" aria-label="Next version" title={why ?? 'Next version'} disabled={off || tag.index === tag.count - 1} onClick={() => go(tag.index + 1)}>
        ›
      </button>
    </div>
  );
}
