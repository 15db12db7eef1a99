/**
 * How a run's wait on a person ended: the answer's effect (decided once, on the one answer path,
 * agent/pauses/prompt-answers.ts), or 'cancelled' (Stop, shutdown, or a newer question in the same chat).
 */
export type PauseOutcome<Settled> = { kind: 'answered'; settled: Promise<Settled> } | { kind: 'cancelled' };

interface Waiting<Settled> {
  requestId: string;
  settle(outcome: PauseOutcome<Settled>): void;
}

/**
 * The runs of this process that are still alive while their chat awaits a person. What is asked
 * is not kept here: it is the chat's awaiting state (its pending request, logged, so a restart
 * finds it). An answer always takes the same path — checked against that state, recorded as an
 * event, its effect decided by the kind's handler — and only then does this board matter: a run
 * still waiting here is handed the effect and goes on; when none waits (the app restarted, or the
 * run was in another process), the answer path settles the held calls and starts a new run.
 */
export class PauseBoard<Settled> {
  private readonly waiting = new Map<string, Waiting<Settled>>();

  /** Waits until the chat's awaiting state is answered; the run's Stop (signal) cancels. */
  await(sessionId: string, requestId: string, signal: AbortSignal): Promise<PauseOutcome<Settled>> {
    return new Promise<PauseOutcome<Settled>>((resolve) => {
      if (signal.aborted) {
        resolve({ kind: 'cancelled' });
        return;
      }
      const onAbort = () => settle({ kind: 'cancelled' });
      const settle = (outcome: PauseOutcome<Settled>) => {
        if (this.waiting.get(sessionId)?.requestId === requestId) this.waiting.delete(sessionId);
        signal.removeEventListener('abort', onAbort);
        resolve(outcome);
      };
      this.waiting.get(sessionId)?.settle({ kind: 'cancelled' });
      this.waiting.set(sessionId, { requestId, settle });
      signal.addEventListener('abort', onAbort, { once: true });
    });
  }

  /** Whether a run of this process waits on this request now. */
  isAwaited(sessionId: string, requestId: string): boolean {
    return this.waiting.get(sessionId)?.requestId === requestId;
  }

  /** Hands the waiting run the answer's effect; false when no run waits on this request. */
  deliver(sessionId: string, requestId: string, settled: Promise<Settled>): boolean {
    const waiting = this.waiting.get(sessionId);
    if (!waiting || waiting.requestId !== requestId) return false;
    waiting.settle({ kind: 'answered', settled });
    return true;
  }

  /** Cancels every wait (shutdown). */
  cancelAll(): void {
    for (const waiting of [...this.waiting.values()]) waiting.settle({ kind: 'cancelled' });
  }
}
