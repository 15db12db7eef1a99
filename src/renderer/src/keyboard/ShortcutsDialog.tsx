import { Fragment, useId, useRef } from 'react';
import { useFocusTrap } from '../components/settings/use-focus-trap';
import { useWaypoint } from '../store/store-context';
import { ELECTRON_FIND, ELECTRON_NEW_CHAT, isMacPlatform, keyParts, SHORTCUTS, type Shortcut } from './shortcuts';
import './shortcuts.css';

const mac = typeof navigator !== 'undefined' && isMacPlatform(navigator.platform || navigator.userAgent);

function Combo({ combo }: { combo: string }) {
  return (
    <kbd className="combo">
      {keyParts(combo, mac).map((part, i) => (
        <Fragment key={i}>
          {i > 0 && <span aria-hidden="true">+</span>}
          <kbd>{part}</kbd>
        </Fragment>
      ))}
    </kbd>
  );
}

/** The desktop app's extra keys, which a browser tab keeps for itself. */
const ELECTRON_EXTRA: Partial<Record<Shortcut['id'], string>> = { newChat: ELECTRON_NEW_CHAT, find: ELECTRON_FIND };

function keysOf(shortcut: Shortcut, electron: boolean): string[] {
  const extra = electron ? ELECTRON_EXTRA[shortcut.id] : undefined;
  return extra ? [...shortcut.keys, extra] : shortcut.keys;
}

/** The list of shortcuts with the keys that actually work here (modal; Escape closes it). */
function ShortcutsDialog({ electron, onClose }: { electron: boolean; onClose(): void }) {
  const ref = useRef<HTMLDivElement>(null);
  const id = useId();
  useFocusTrap(ref, onClose);
  return (
    <div className="modal-backdrop">
      <div ref={ref} className="modal" role="dialog" aria-modal="true" aria-labelledby={`${id}-title`}>
        <h2 id={`${id}-title`}>Keyboard shortcuts</h2>
        <table className="shortcuts">
          <thead>
            <tr>
              <th scope="col">Action</th>
              <th scope="col">Keys</th>
            </tr>
          </thead>
          <tbody>
            {SHORTCUTS.map((s) => (
              <tr key={s.id} data-shortcut={s.id}>
                <th scope="row">
                  {s.action}
                  {s.where && <span className="shortcuts-where"> ({s.where})</span>}
                </th>
                <td>
                  {keysOf(s, electron).map((combo, i) => (
                    <Fragment key={combo}>
                      {i > 0 && ' or '}
                      <Combo combo={combo} />
                    </Fragment>
                  ))}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        <p className="hint">Escape closes a dialog; Tab and Shift+Tab move between controls.</p>
        <div className="modal-actions">
          <button type="button" className="btn btn--primary" onClick={onClose}>
            Close
          </button>
        </div>
      </div>
    </div>
  );
}

/** Renders the shortcuts list while the store says it is open. */
export function ShortcutsHost() {
  const open = useWaypoint((s) => s.shortcutsOpen);
  const close = useWaypoint((s) => s.closeShortcuts);
  const electron = useWaypoint((s) => s.appInfo?.shell === 'electron');
  return open ? <ShortcutsDialog electron={electron} onClose={close} /> : null;
}

/** The header's "?" button that opens the list. */
export function ShortcutsButton() {
  const openShortcuts = useWaypoint((s) => s.openShortcuts);
  return (
    <button type="button" className="btn btn--icon" aria-label="Keyboard shortcuts" title="Keyboard shortcuts" onClick={openShortcuts}>
      ?
    </button>
  );
}
