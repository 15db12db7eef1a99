import type { StoreApi } from 'zustand/vanilla';
import { failed, OK } from './errors';
import type { ActionResult, WaypointState } from './types';

/**
 * The one mechanism behind every question a run pauses on, as the renderer holds it (approvals,
 * escalations, questions from Claude): main holds the question of record; the store keeps the
 * pending one per chat, drops it once main says it was resolved (by anyone: another tab, Stop),
 * and sends an answer once. Each kind's slice is these three operations on its own field.
 */

type PromptField = 'approvals' | 'escalations' | 'questions';
type Set = StoreApi<WaypointState>['setState'];
type Get = StoreApi<WaypointState>['getState'];

export function setPending<F extends PromptField>(set: Set, field: F, sessionId: string, request: WaypointState[F][string]): void {
  set((state) => ({ [field]: { ...state[field], [sessionId]: request } }) as Partial<WaypointState>);
}

/** Clears the chat's pending question of this kind when it is the one resolved. */
export function resolvePending(set: Set, get: Get, field: PromptField, sessionId: string, requestId: string): void {
  if (get()[field][sessionId]?.id !== requestId) return;
  setPending(set, field, sessionId, null);
}

export interface AnswerOptions {
  /** Said when main no longer waits on the question: another tab or Stop got there first. */
  stale: string;
  /** A refused answer (main said why) is shown by the question itself rather than the app's banner. */
  refusalShownByCaller?: boolean;
}

/**
 * Sends the answer. Not accepted: the question is gone in main (answered in another tab, or
 * cancelled), so it goes here too and the user is told in words; nothing changed. A refusal
 * (an answer that does not fit) keeps the question open.
 */
export async function answerPending(
  set: Set,
  get: Get,
  field: PromptField,
  sessionId: string,
  requestId: string,
  send: () => Promise<{ accepted: boolean }>,
  options: AnswerOptions,
): Promise<ActionResult> {
  try {
    const { accepted } = await send();
    resolvePending(set, get, field, sessionId, requestId);
    if (accepted) return OK;
    get().setLastError(options.stale);
    return { ok: false, message: options.stale };
  } catch (error) {
    const result = failed(error);
    if (!result.ok && !options.refusalShownByCaller) get().setLastError(result.message);
    return result;
  }
}
