import { useState } from 'react';
import { askNotificationPermission } from '../../notify/browser-notifications';

/**
 * Settings "Notifications" (web shell): turning it on asks the browser's permission first; when
 * the browser refuses, the box stays off and says why in words, beside it.
 */
export function NotificationsCheck(props: { id: string; checked: boolean; onChange(value: boolean): void }) {
  const [refused, setRefused] = useState<string | null>(null);
  const [asking, setAsking] = useState(false);
  const change = async (on: boolean) => {
    setRefused(null);
    if (!on) return props.onChange(false);
    setAsking(true);
    const why = await askNotificationPermission().catch(() => 'The browser did not answer: notifications stay off.');
    setAsking(false);
    setRefused(why);
    props.onChange(why === null);
  };
  return (
    <div className="field field--check">
      <input id={props.id} type="checkbox" checked={props.checked} disabled={asking} onChange={(e) => void change(e.target.checked)}
        aria-describedby={`${props.id}-hint${refused ? ` ${props.id}-refused` : ''}`} />
      <label htmlFor={props.id}>Notifications</label>
      <p id={`${props.id}-hint`} className="hint">This browser tells you when a chat you are not looking at needs you or finishes.</p>
      <p id={`${props.id}-refused`} className="form-error" role="status">{refused}</p>
    </div>
  );
}
