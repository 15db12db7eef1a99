import { useCallback } from 'react';
import { useWaypoint } from '../../store/store-context';

/** What "choose a folder" does in this shell: Electron's folder dialog, the web shell's own dialog. */
export function useChooseWorkspace(): () => void {
  const electron = useWaypoint((s) => s.appInfo?.shell === 'electron');
  const chooseWorkspace = useWaypoint((s) => s.chooseWorkspace);
  const setOpen = useWaypoint((s) => s.setWorkspaceDialogOpen);
  return useCallback(() => {
    if (electron) void chooseWorkspace();
    else setOpen(true);
  }, [electron, chooseWorkspace, setOpen]);
}
