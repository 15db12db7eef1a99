import { memo, useCallback, useEffect, useMemo } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { useWaypoint } from '../store/store-context';
import { ChatView } from './ChatView';
import { ConnectionBanner } from './ConnectionBanner';
import { ErrorBanner } from './ErrorBanner';
import { StorageProblemNotice } from './sessions/StorageProblemNotice';
import { Header } from './Header';
import { ChangesRegion } from './changes/ChangesRegion';
import { Onboarding } from './Onboarding';
import { SettingsDialog } from './settings/SettingsDialog';
import { Sidebar } from './Sidebar';
import { SKIP_TARGET_ID, SkipLink } from './SkipLink';
import { ShortcutsHost } from '../keyboard/ShortcutsDialog';
import { SettingsResetNotice } from './sessions/SettingsResetNotice';
import { McpFailureNotice } from './mcp/McpFailureNotice';
import { UNREACHABLE_MESSAGE } from '../store/connect';
import { LINK_INVALID_HELP, LINK_INVALID_TITLE, TOO_MANY_TABS_HELP, TOO_MANY_TABS_TITLE } from '../api/connection';
import { shownTheme } from '../store/layout-slice';

export function App() {
  const load = useWaypoint((s) => s.load);
  const connection = useWaypoint((s) => s.connection);
  const view = useWaypoint((s) => s.settingsView);
  const theme = useWaypoint(shownTheme);

  useEffect(() => {
    document.documentElement.dataset.theme = theme;
  }, [theme]);

  if (connection.state === 'refused') {
    // Nothing on this page can work any more: say so instead of "retrying" forever.
    const full = connection.why === 'too_many_tabs';
    return (
      <main className="splash">
        <div className="splash-card" role="alert">
          <h1>{full ? TOO_MANY_TABS_TITLE : LINK_INVALID_TITLE}</h1>
          <p>{full ? TOO_MANY_TABS_HELP : LINK_INVALID_HELP}</p>
          {full && (
            <button type="button" onClick={() => window.location.reload()}>
              Reload
            </button>
          )}
        </div>
      </main>
    );
  }
  if (load.status !== 'ready' || !view) {
    const unreachable = load.status === 'unreachable' || connection.state === 'reconnecting';
    return (
      <main className="splash" aria-busy={!unreachable}>
        <p role={unreachable ? 'alert' : 'status'}>{unreachable ? UNREACHABLE_MESSAGE : 'Loading Waypoint…'}</p>
      </main>
    );
  }
  return <Shell />;
}

// The shell renders again with every change to the chats list (each reply's cost, each plan
// step's progress in the sidebar): what takes nothing from that list renders only on its own changes.
const ShownHeader = memo(Header);
const ShownNotices = memo(function Notices() {
  return (
    <>
      <SettingsResetNotice />
      <StorageProblemNotice />
      <McpFailureNotice />
    </>
  );
});
const ShownShortcutsHost = memo(ShortcutsHost);

function Shell() {
  // Only what the frame needs: streaming deltas must not re-render the whole shell.
  const s = useWaypoint(
    useShallow((state) => ({
      sessions: state.sessions,
      currentSessionId: state.currentSessionId,
      connection: state.connection,
      lastError: state.lastError,
      appInfo: state.appInfo,
      settingsView: state.settingsView,
      settingsOpen: state.settingsOpen,
      models: state.models,
      newChat: state.newChat,
      sidebarOpen: state.sidebarOpen,
      closeSidebar: state.closeSidebar,
      chooseWorkspace: state.chooseWorkspace,
      openSession: state.openSession,
      setLastError: state.setLastError,
      openSettings: state.openSettings,
      closeSettings: state.closeSettings,
      loadModels: state.loadModels,
      saveApiKey: state.saveApiKey,
      saveSettings: state.saveSettings,
      setChatModel: state.setChatModel,
      changesFor: state.changesFor,
    })),
  );
  const { chooseWorkspace, closeSidebar, newChat, openSession, setChatModel, currentSessionId } = s;
  const onChooseWorkspace = useCallback(() => void chooseWorkspace(), [chooseWorkspace]);
  // Stable per chat, so the memoised header renders only when what it shows changed.
  const onChooseModel = useMemo(() => (currentSessionId ? (model: string) => void setChatModel(currentSessionId, model) : undefined), [currentSessionId, setChatModel]);
  // Stable, so the sidebar's rows (memoised) render only when their chat changed.
  const onNewChat = useCallback(() => {
    closeSidebar();
    void newChat();
  }, [closeSidebar, newChat]);
  const onOpen = useCallback(
    (id: string) => {
      closeSidebar();
      void openSession(id);
    },
    [closeSidebar, openSession],
  );
  const view = s.settingsView;
  if (!view) return null;
  const current = s.sessions.find((session) => session.id === s.currentSessionId);

  return (
    <div className="app" data-sidebar={s.sidebarOpen ? 'open' : 'closed'}>
      <SkipLink />
      <Sidebar
        sessions={s.sessions}
        currentSessionId={s.currentSessionId}
        onNewChat={onNewChat}
        onOpen={onOpen}
      />
      <main id={SKIP_TARGET_ID} className="main-column" tabIndex={-1}>
        <ConnectionBanner status={s.connection} />
        <ErrorBanner message={s.lastError} onDismiss={() => s.setLastError(null)} />
        <ShownNotices />
        <ShownHeader
          title={current?.title ?? 'New chat'}
          workspace={current?.workspace ?? s.appInfo?.workspace ?? null}
          model={current?.model ?? view.settings.model}
          {...(current && onChooseModel && view.apiKey.hasApiKey ? { onChooseModel } : {})}
          onOpenSettings={s.openSettings}
          {...(s.appInfo?.shell === 'electron' ? { onChooseWorkspace } : {})}
          {...(current ? { sessionId: current.id, branch: current.worktree?.branch ?? null } : {})}
        />
        {current && s.changesFor === current.id && <ChangesRegion sessionId={current.id} />}
        {view.apiKey.hasApiKey ? (
          <ChatView />
        ) : (
          <Onboarding
            view={view}
            shell={s.appInfo?.shell}
            models={s.models}
            onLoadModels={s.loadModels}
            onSaveKey={s.saveApiKey}
            onSaveModel={(model) => s.saveSettings({ model })}
          />
        )}
      </main>
      {s.settingsOpen && (
        <SettingsDialog view={view} models={s.models} onSave={s.saveSettings} onSaveKey={s.saveApiKey} onClose={s.closeSettings} />
      )}
      <ShownShortcutsHost />
    </div>
  );
}
