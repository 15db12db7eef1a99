import type { EscalationAnswer, EscalationRequest } from '../../shared/prompts';

/** How a pending escalation ended: the user's answer, or 'cancelled' (Stop, shutdown). */
export type EscalationOutcome = EscalationAnswer | { kind: 'cancelled' };

interface Waiting {
  request: EscalationRequest;
  settle(outcome: EscalationOutcome): void;
}

/**
 * The escalations runs are paused on, at most one per chat (a run handles its failures one at a
 * time). Each is answered once: a stale id, another chat's id or a second answer is refused.
 */
export class EscalationGate {
  private readonly waiting = new Map<string, Waiting>();

  /** Waits for the user's answer; the run's Stop (signal) cancels. */
  wait(request: EscalationRequest, signal: AbortSignal): Promise<EscalationOutcome> {
    return new Promise<EscalationOutcome>((resolve) => {
      if (signal.aborted) {
        resolve({ kind: 'cancelled' });
        return;
      }
      const onAbort = () => settle({ kind: 'cancelled' });
      const settle = (outcome: EscalationOutcome) => {
        if (this.waiting.get(request.sessionId)?.request.id === request.id) this.waiting.delete(request.sessionId);
        signal.removeEventListener('abort', onAbort);
        resolve(outcome);
      };
      this.waiting.get(request.sessionId)?.settle({ kind: 'cancelled' });
      this.waiting.set(request.sessionId, { request, settle });
      signal.addEventListener('abort', onAbort, { once: true });
    });
  }

  /** False when no run waits on this request (stale, unknown, already answered). */
  answer(sessionId: string, requestId: string, answer: EscalationAnswer): boolean {
    const waiting = this.waiting.get(sessionId);
    if (!waiting || waiting.request.id !== requestId) return false;
    waiting.settle(answer);
    return true;
  }

  isWaiting(sessionId: string): boolean {
    return this.waiting.has(sessionId);
  }

  cancelAll(): void {
    for (const waiting of [...this.waiting.values()]) waiting.settle({ kind: 'cancelled' });
  }
}
