import { WaypointCallError } from '../../../shared/contract';
import type { ActionResult } from './types';

/** A sentence for the user from whatever a call threw. */
export function messageOf(error: unknown): string {
  if (error instanceof WaypointCallError) return error.message;
  if (error instanceof Error && error.message) return error.message;
  return 'Something went wrong; try again.';
}

export function failed(error: unknown): ActionResult {
  return { ok: false, message: messageOf(error) };
}

export const OK: ActionResult = { ok: true };
