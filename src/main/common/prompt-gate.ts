/**
 * How a question the run paused on ended: the user's answer, or 'cancelled' (Stop, shutdown, or
 * a newer question in the same chat).
 */
export type PromptOutcome<Answer> = { kind: 'answered'; answer: Answer } | { kind: 'cancelled' };

/** Every question names itself and its chat. */
export interface PromptRequest {
  id: string;
  sessionId: string;
}

interface Waiting<Request, Answer> {
  request: Request;
  settle(outcome: PromptOutcome<Answer>): void;
}

/**
 * The questions runs are paused on, one per chat at most (a run asks one at a time), for one kind
 * of question: approvals of risky tool calls, escalations of failing steps, and (coming) questions
 * from Claude. Each is answered once: a stale id, another chat's id or a second answer is refused
 * and changes nothing. After a restart no run waits here; agent/prompt-resume.ts answers those.
 */
export class PromptGate<Request extends PromptRequest, Answer> {
  private readonly waiting = new Map<string, Waiting<Request, Answer>>();

  /** Waits for the user's answer; the run's Stop (signal) cancels. */
  wait(request: Request, signal: AbortSignal): Promise<PromptOutcome<Answer>> {
    return new Promise<PromptOutcome<Answer>>((resolve) => {
      if (signal.aborted) {
        resolve({ kind: 'cancelled' });
        return;
      }
      const onAbort = () => settle({ kind: 'cancelled' });
      const settle = (outcome: PromptOutcome<Answer>) => {
        if (this.waiting.get(request.sessionId)?.request.id === request.id) this.waiting.delete(request.sessionId);
        signal.removeEventListener('abort', onAbort);
        resolve(outcome);
      };
      this.waiting.get(request.sessionId)?.settle({ kind: 'cancelled' });
      this.waiting.set(request.sessionId, { request, settle });
      signal.addEventListener('abort', onAbort, { once: true });
    });
  }

  /** The user's answer; false when no run waits on this request (stale, unknown, answered). */
  answer(sessionId: string, requestId: string, answer: Answer): boolean {
    const waiting = this.waiting.get(sessionId);
    if (!waiting || waiting.request.id !== requestId) return false;
    waiting.settle({ kind: 'answered', answer });
    return true;
  }

  pending(sessionId: string): Request | null {
    return this.waiting.get(sessionId)?.request ?? null;
  }

  /** Cancels every pending question (shutdown). */
  cancelAll(): void {
    for (const waiting of [...this.waiting.values()]) waiting.settle({ kind: 'cancelled' });
  }
}
