import { type FormEvent, useId, useRef, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { useWaypoint } from '../../store/store-context';
import { useFocusTrap } from '../settings/use-focus-trap';
import { recentFolders } from './folders';

/**
 * The web shell's folder choice (a browser cannot open a folder picker that gives a path): the
 * folder's full path, checked by main (it exists, is a folder, is not Waypoint's data folder),
 * and the folders of recent chats as one-press choices. An error keeps the dialog open with the
 * typed text; nothing changes until a folder is accepted.
 */
export function WorkspaceDialog({ current }: { current: string | null }) {
  const { sessions, startFolder, chooseWorkspace, setOpen } = useWaypoint(
    useShallow((s) => ({ sessions: s.sessions, startFolder: s.appInfo?.workspace ?? null, chooseWorkspace: s.chooseWorkspace, setOpen: s.setWorkspaceDialogOpen })),
  );
  const [folder, setFolder] = useState(current ?? '');
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const ref = useRef<HTMLDivElement>(null);
  const id = useId();
  const close = () => setOpen(false);
  useFocusTrap(ref, close);
  const recent = recentFolders(sessions, startFolder, current);

  const accept = async (path: string) => {
    setBusy(true);
    const result = await chooseWorkspace(path);
    setBusy(false);
    if (result.ok) close();
    else setProblem(result.message);
  };
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!folder.trim()) {
      setProblem("Type the folder's full path.");
      return;
    }
    void accept(folder);
  };

  return (
    <div className="modal-backdrop">
      <div ref={ref} className="modal workspace-dialog" role="dialog" aria-modal="true" aria-labelledby={`${id}-title`}>
        <h2 id={`${id}-title`}>Choose a workspace</h2>
        <form onSubmit={onSubmit} noValidate>
          <div className="field">
            <label htmlFor={`${id}-folder`}>Workspace folder</label>
            <input
              id={`${id}-folder`}
              type="text"
              value={folder}
              spellCheck={false}
              autoComplete="off"
              aria-invalid={problem ? true : undefined}
              aria-describedby={problem ? `${id}-hint ${id}-problem` : `${id}-hint`}
              onChange={(e) => {
                setFolder(e.target.value);
                setProblem(null);
              }}
            />
            <p id={`${id}-hint`} className="hint">
              The folder's full path. Claude reads, changes and runs commands only inside it.
            </p>
            {problem && (
              <p id={`${id}-problem`} className="field-error" role="alert">
                {problem}
              </p>
            )}
          </div>
          {recent.length > 0 && (
            <section aria-labelledby={`${id}-recent`}>
              <h3 id={`${id}-recent`} className="workspace-recent-title">
                Recent folders
              </h3>
              <ul className="workspace-recent">
                {recent.map((path) => (
                  <li key={path}>
                    <button type="button" className="btn workspace-recent-folder" disabled={busy} onClick={() => void accept(path)}>
                      {path}
                    </button>
                  </li>
                ))}
              </ul>
            </section>
          )}
          <div className="modal-actions">
            <button type="button" className="btn" onClick={close}>
              Cancel
            </button>
            <button type="submit" className="btn btn--primary" disabled={busy}>
              Use this folder
            </button>
          </div>
        </form>
      </div>
    </div>
  );
}
