import { modelDisplayName } from '../../../shared/model-names';
import { ShortcutsButton } from '../keyboard/ShortcutsDialog';
import { useWaypoint } from '../store/store-context';
import { ChatCost } from './sessions/ChatCost';
import { ChatsMenuButton } from './ChatsMenuButton';
import { FindButton } from './find/FindButton';
import { WorkspaceButton } from './workspace/WorkspaceButton';

interface Props {
  title: string;
  workspace: string | null;
  model: string | null;
  onOpenSettings(): void;
  /** Electron only: the OS folder dialog for this chat's workspace (the web shell has its own dialog). */
  onChooseWorkspace?: () => void;
}

export function Header({ title, workspace, model, onOpenSettings, onChooseWorkspace }: Props) {
  const models = useWaypoint((s) => s.models);
  return (
    <header className="header">
      <ChatsMenuButton />
      <h1 className="header-title">{title}</h1>
      <WorkspaceButton workspace={workspace} onPick={onChooseWorkspace} />
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
