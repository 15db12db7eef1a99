import { modelDisplayName } from '../../../shared/model-names';
import { ShortcutsButton } from '../keyboard/ShortcutsDialog';
import { useWaypoint } from '../store/store-context';
import { ChatCost } from './sessions/ChatCost';
import { ChatsMenuButton } from './ChatsMenuButton';
import { FindButton } from './find/FindButton';

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
  const models = useWaypoint((s) => s.models);
  return (
    <header className="header">
      <ChatsMenuButton />
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
        <span className="header-chip" title={model}>
          <span className="sr-only">Model: </span>
          {modelDisplayName(model, models)}
        </span>
      )}
      <ChatCost />
      <FindButton />
      <ShortcutsButton />
      <button type="button" className="btn" onClick={onOpenSettings}>
        Settings
      </button>
    </header>
  );
}
