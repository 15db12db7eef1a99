import { ELECTRON_FIND, isMacPlatform, keyParts, SHORTCUTS } from '../../keyboard/shortcuts';
import { useWaypoint } from '../../store/store-context';
import { Icon } from '../icons/Icon';

/** The header's "Find in chat" button: opens the find bar (or puts the focus back in it). */
export function FindButton() {
  const openFind = useWaypoint((s) => s.openFind);
  const electron = useWaypoint((s) => s.appInfo?.shell === 'electron');
  const mac = typeof navigator !== 'undefined' && isMacPlatform(navigator.platform || navigator.userAgent);
  const combo = electron ? ELECTRON_FIND : (SHORTCUTS.find((x) => x.id === 'find')?.keys[0] ?? '');
  return (
    <button type="button" className="btn btn--icon" aria-label="Find in chat" title={`Find in chat (${keyParts(combo, mac).join('+')})`} onClick={openFind}>
      <Icon name="search" />
    </button>
  );
}
