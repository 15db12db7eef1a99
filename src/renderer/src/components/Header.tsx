interface Props {
  title: string;
  workspace: string | null;
  model: string | null;
  onOpenSettings(): void;
}

function folderName(path: string): string {
  return path.split(/[\\/]/).filter(Boolean).pop() ?? path;
}

export function Header({ title, workspace, model, onOpenSettings }: Props) {
  return (
    <header className="header">
      <h1 className="header-title">{title}</h1>
      {workspace && (
        <span className="header-chip" title={workspace}>
          <span className="sr-only">Workspace: </span>
          {folderName(workspace)}
        </span>
      )}
      {model && (
        <span className="header-chip">
          <span className="sr-only">Model: </span>
          {model}
        </span>
      )}
      <button type="button" className="btn" onClick={onOpenSettings}>
        Settings
      </button>
    </header>
  );
}
