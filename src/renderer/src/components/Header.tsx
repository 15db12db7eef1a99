import { ShortcutsButton } from '../keyboard/ShortcutsDialog';
import { ChatCost } from './sessions/ChatCost';

interface Props {
  title: string;
  workspace: string | null;
  model: string | null;
  onOpenSettings(): void;
  /** Electron only: pick this chat's workspace folder (the web shell's is set by --workspace). */
  onChooseWorkspace?: () => void;
}

function folderName(path: string): string {
  return path.split(/[\\/]/).filter(Boolean).pop() ?? path;
}

export function Header({ title, workspace, model, onOpenSettings, onChooseWorkspace }: Props) {
  return (
    <header className="header">
      <h1 className="header-title">{title}</h1>
      {workspace && (
        <span className="header-chip" title={workspace}>
          <span className="sr-only">Workspace: </span>
          {folderName(workspace)}
        </span>
      )}
      {onChooseWorkspace && (
        <button type="button" className="btn" onClick={onChooseWorkspace}>
          {workspace ? 'Change folder' : 'Choose folder'}
        </button>
      )}
      {model && (
        <span className="header-chip">
          <span className="sr-only">Model: </span>
          {model}
        </span>
      )}
      <ChatCost />
      <ShortcutsButton />
      <button type="button" className="btn" onClick={onOpenSettings}>
        Settings
      </button>
    </header>
  );
}
