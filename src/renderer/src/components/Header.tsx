import { useEffect, useId } from 'react';
import { modelDisplayName } from '../../../shared/model-names';
import { ShortcutsButton } from '../keyboard/ShortcutsDialog';
import { useWaypoint } from '../store/store-context';
import { ChatCost } from './sessions/ChatCost';
import { ChatsMenuButton } from './ChatsMenuButton';
import { FindButton } from './find/FindButton';
import { InstructionsButton } from './instructions/InstructionsButton';
import { NeedsYouButton } from './inbox/NeedsYou';
import { ModelSelect } from './settings/ModelSelect';
import { WorkspaceButton } from './workspace/WorkspaceButton';
import { ChangesButton } from './changes/ChangesButton';

interface Props {
  title: string;
  workspace: string | null;
  /** The model the open chat's runs use (its own, or the default in Settings). */
  model: string | null;
  /** With a chat open: choose its model ("Chat model"); without one the header only names the default. */
  onChooseModel?: (model: string) => void;
  onOpenSettings(): void;
  /** Electron only: the OS folder dialog for this chat's workspace (the web shell has its own dialog). */
  onChooseWorkspace?: () => void;
  /** The open chat, for "Changes"; its worktree's branch when it works in one. */
  sessionId?: string;
  branch?: string | null;
}

export function Header({ title, workspace, model, onChooseModel, onOpenSettings, onChooseWorkspace, sessionId, branch }: Props) {
  const models = useWaypoint((s) => s.models);
  const loadModels = useWaypoint((s) => s.loadModels);
  const id = useId();
  // The picker offers the Models API's list, loaded once (Settings loads it too); until then it offers the current model.
  const picking = Boolean(model && onChooseModel);
  const noModels = models.length === 0;
  useEffect(() => {
    if (picking && noModels) void loadModels();
  }, [picking, noModels, loadModels]);
  return (
    <header className="header">
      <ChatsMenuButton />
      <h1 className="header-title">{title}</h1>
      <WorkspaceButton workspace={workspace} onPick={onChooseWorkspace} />
      {model && onChooseModel ? (
        <ModelSelect id={`${id}-model`} className="header-chip header-chip--model" label="Chat model" value={model} models={models} onChange={onChooseModel} />
      ) : model && (
        <span className="header-chip" title={model}>
          <span className="sr-only">Model: </span>
          {modelDisplayName(model, models)}
        </span>
      )}
      {sessionId && <ChangesButton sessionId={sessionId} branch={branch ?? null} />}
      <ChatCost />
      {sessionId && <InstructionsButton sessionId={sessionId} />}
      <NeedsYouButton />
      <FindButton />
      <ShortcutsButton />
      <button type="button" className="btn" onClick={onOpenSettings}>
        Settings
      </button>
    </header>
  );
}
