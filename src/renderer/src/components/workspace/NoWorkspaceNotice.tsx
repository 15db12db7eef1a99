import { useWaypoint } from '../../store/store-context';
import { useChooseWorkspace } from './use-choose-workspace';

/**
 * Above the composer of a chat without a folder: Claude has no file or command tools there, and
 * a request to change a file would only fail, so the chat says so before the first message.
 */
export function NoWorkspaceNotice() {
  const none = useWaypoint((s) => {
    const current = s.sessions.find((x) => x.id === s.currentSessionId);
    return current ? !current.workspace : !s.appInfo?.workspace;
  });
  const choose = useChooseWorkspace();
  if (!none) return null;
  return (
    <section className="banner banner--warning no-workspace-notice" aria-label="No workspace">
      <p>This chat has no workspace folder: Claude cannot read or change files or run commands here.</p>
      <button type="button" className="btn" onClick={choose}>
        Choose a folder
      </button>
    </section>
  );
}
