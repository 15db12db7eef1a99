import type { ConnectionStatus } from '../api/connection';

/** Shown while a dropped WebSocket is being re-established; the view stays as it was. */
export function ConnectionBanner({ status }: { status: ConnectionStatus }) {
  if (status.state !== 'reconnecting') return null;
  return (
    <div className="banner banner--warning" role="status">
      Reconnecting… (attempt {status.attempt})
    </div>
  );
}
