import type { CallOutput } from '../../../shared/contract';
import type { EscalationAnswer, EscalationRequest } from '../../../shared/prompts';
import { failed, OK } from './errors';
import { answerPending, resolvePending, setPending } from './prompt-slots';
import type { ActionResult, SliceCreator } from './types';

export type UndoPreview = CallOutput<'previewUndoPlan'>['files'];
export type UndoOutcome = CallOutput<'undoPlan'>;

/**
 * Recovery in the renderer: the escalation each chat's run is paused on (main holds the state of
 * record, so it comes back after a reload), its answer, "Undo plan", and "Retry now" after the
 * loop gave up on API faults.
 */
export interface EscalationSlice {
  escalations: Record<string, EscalationRequest | null>;
  setEscalation(sessionId: string, request: EscalationRequest | null): void;
  resolveEscalation(sessionId: string, requestId: string): void;
  answerEscalation(sessionId: string, requestId: string, answer: EscalationAnswer): Promise<ActionResult>;
  previewUndoPlan(sessionId: string): Promise<{ ok: true; files: UndoPreview } | { ok: false; message: string }>;
  undoPlan(sessionId: string, overwriteChangedOutside: boolean): Promise<{ ok: true; outcome: UndoOutcome } | { ok: false; message: string }>;
  retryRun(sessionId: string): Promise<ActionResult>;
}

export const createEscalationSlice: SliceCreator<EscalationSlice> = (set, get, api) => ({
  escalations: {},
  setEscalation: (sessionId, request) => setPending(set, 'escalations', sessionId, request),
  resolveEscalation: (sessionId, requestId) => resolvePending(set, get, 'escalations', sessionId, requestId),
  answerEscalation: (sessionId, requestId, answer) =>
    answerPending(set, get, 'escalations', sessionId, requestId, () => api.call('answerEscalation', { sessionId, requestId, answer }), { stale: 'That stuck step was already answered (in another window?) or cancelled: nothing changed.' }),
  async previewUndoPlan(sessionId) {
    try {
      const { files } = await api.call('previewUndoPlan', { sessionId });
      return { ok: true, files };
    } catch (error) {
      return failed(error) as { ok: false; message: string };
    }
  },
  async undoPlan(sessionId, overwriteChangedOutside) {
    try {
      return { ok: true, outcome: await api.call('undoPlan', { sessionId, overwriteChangedOutside }) };
    } catch (error) {
      return failed(error) as { ok: false; message: string };
    }
  },
  async retryRun(sessionId) {
    try {
      const { started } = await api.call('retryRun', { sessionId });
      if (!started) get().setLastError('There is nothing to retry: Claude already answered the last message.');
      return OK;
    } catch (error) {
      const result = failed(error);
      if (!result.ok) get().setLastError(result.message);
      return result;
    }
  },
});
