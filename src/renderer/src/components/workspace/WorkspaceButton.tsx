import { useId } from 'react';
import { useWaypoint } from '../../store/store-context';
import { folderName } from './folders';
import { useChooseWorkspace } from './use-choose-workspace';
import { WorkspaceDialog } from './WorkspaceDialog';
import './workspace.css';

/**
 * The chat's folder in the header: a button named "Workspace" and the folder's name (or "none"),
 * its full path as the description. It chooses the folder: Electron's dialog, or the web shell's
 * "Choose a workspace" dialog (rendered here, so the header is all it needs).
 */
export function WorkspaceButton({ workspace, onPick }: { workspace: string | null; onPick?: (() => void) | undefined }) {
  const shellChoice = useChooseWorkspace();
  const choose = onPick ?? shellChoice;
  const dialogOpen = useWaypoint((s) => s.workspaceDialogOpen);
  const descriptionId = useId();
  return (
    <>
      <button type="button" className="header-chip workspace-button" onClick={choose} title={workspace ?? 'No workspace folder: choose one'} aria-describedby={descriptionId}>
        <span className="workspace-button-label">Workspace</span> <span className="workspace-button-folder">{workspace ? folderName(workspace) : 'none'}</span>
      </button>
      {/* Hidden: read as the button's description, not as text of its own. */}
      <span id={descriptionId} hidden>
        {workspace ? `Folder: ${workspace}` : 'This chat has no folder: Claude cannot read or change files.'}
      </span>
      {dialogOpen && <WorkspaceDialog current={workspace} />}
    </>
  );
}
