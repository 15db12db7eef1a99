import type { ApprovalDecision, ApprovalRequest } from '../../shared/prompts';

/** How a pending approval ended. 'cancelled' = the user pressed Stop (or the app shut down). */
export type ApprovalOutcome = 'approved' | 'denied' | 'cancelled';

interface Waiting {
  request: ApprovalRequest;
  settle(outcome: ApprovalOutcome): void;
}

/**
 * The approval requests the loop is paused on, one per chat at most (a run executes its tools
 * one after another). Each request is answered exactly once: a second answer, an answer for
 * another request id, or one for another chat is refused and changes nothing.
 */
export class ApprovalGate {
  private readonly waiting = new Map<string, Waiting>();

  /** Waits for the user's answer; a Stop (signal) cancels. */
  wait(request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalOutcome> {
    return new Promise<ApprovalOutcome>((resolve) => {
      const onAbort = () => settle('cancelled');
      const settle = (outcome: ApprovalOutcome) => {
        if (this.waiting.get(request.sessionId)?.request.id === request.id) this.waiting.delete(request.sessionId);
        signal.removeEventListener('abort', onAbort);
        resolve(outcome);
      };
      if (signal.aborted) {
        resolve('cancelled');
        return;
      }
      this.waiting.get(request.sessionId)?.settle('cancelled');
      this.waiting.set(request.sessionId, { request, settle });
      signal.addEventListener('abort', onAbort, { once: true });
    });
  }

  /** The user's answer; false when there is no such pending request (stale, unknown, answered). */
  answer(sessionId: string, requestId: string, decision: ApprovalDecision): boolean {
    const waiting = this.waiting.get(sessionId);
    if (!waiting || waiting.request.id !== requestId) return false;
    waiting.settle(decision === 'approve' ? 'approved' : 'denied');
    return true;
  }

  pending(sessionId: string): ApprovalRequest | null {
    return this.waiting.get(sessionId)?.request ?? null;
  }

  /** Cancels everything (shutdown). */
  cancelAll(): void {
    for (const waiting of [...this.waiting.values()]) waiting.settle('cancelled');
  }
}
