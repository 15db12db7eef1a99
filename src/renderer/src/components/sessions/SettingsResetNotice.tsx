import { useWaypoint } from '../../store/store-context';

/** Once per start: settings.json was damaged and replaced by defaults; where the old file is. */
export function SettingsResetNotice() {
  const reset = useWaypoint((s) => s.appInfo?.settingsReset ?? null);
  const dismissed = useWaypoint((s) => s.settingsNoticeDismissed);
  const dismiss = useWaypoint((s) => s.dismissSettingsNotice);
  if (!reset || dismissed) return null;
  return (
    <div className="banner banner--warning" role="alert">
      <p>
        Your settings file could not be used ({reset.reason}), so Waypoint started with default settings. The old file is kept at{' '}
        <code>{reset.backupPath}</code>.
      </p>
      <button type="button" className="btn" onClick={dismiss}>
        Dismiss
      </button>
    </div>
  );
}
