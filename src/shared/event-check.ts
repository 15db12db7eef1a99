import { describeZodError, WaypointEvent } from './contract';

/** Where a refused event is reported; both shells pass console.warn by default. */
export type EventWarn = (message: string) => void;

/** Long enough for any real event type, short enough that a garbage `type` can't flood the log. */
const TYPE_CHARS = 60;

function typeOf(payload: unknown): string {
  const type = typeof payload === 'object' && payload !== null ? (payload as { type?: unknown }).type : undefined;
  return typeof type === 'string' ? JSON.stringify(type.slice(0, TYPE_CHARS)) : '(no type)';
}

/**
 * The page's gate on events from main, the same in the window (preload) and the browser tab
 * (web client): an event the contract's union refuses never reaches the store, where it could
 * break the view, and is never dropped silently either. The warning names the event's type and
 * zod's issues (paths and messages, never the values), so no payload text — a file's contents,
 * a key someone pasted — lands in the console.
 */
export function checkEvent(payload: unknown, warn: EventWarn): WaypointEvent | null {
  const parsed = WaypointEvent.safeParse(payload);
  if (parsed.success) return parsed.data;
  warn(`Waypoint ignored an invalid event of type ${typeOf(payload)} from main: ${describeZodError(parsed.error)}`);
  return null;
}
