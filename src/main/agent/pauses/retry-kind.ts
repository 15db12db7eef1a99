import { awaitsRetry, RetryAnswer } from '../../../shared/retry-now';
import { noticeItem } from '../../common/transcript-items';
import type { PauseKind, PauseRequest } from './pause-kind';

/** The chat awaits "Retry now": its run gave up on API faults (the request's id is the error notice's). */
export type RetryRequest = PauseRequest;

const RETRY_DECLINED = 'Not retried: your message was not sent again. Send a new message to go on.';

/**
 * API-retry exhaustion: the run ended with an error notice, the user's message kept last in the
 * history (failed attempts never reach it). That notice ending the transcript is the awaiting
 * state. "retry" resends the history as it is (a new run); "abort" records that it was declined
 * and nothing runs. No tool call is held back.
 */
export function retryKind(): PauseKind<RetryRequest, RetryAnswer> {
  return {
    answer: RetryAnswer,
    pending(session) {
      const lastId = session.idAt(session.itemCount - 1);
      const last = lastId === undefined ? undefined : session.item(lastId);
      if (!awaitsRetry(last) || session.history.at(-1)?.role !== 'user') return null;
      return { id: last.id, sessionId: session.summary.id };
    },
    problem: () => null,
    needsOpenCall: false,
    continues: (answer) => answer === 'retry',
    answered({ session, publish }, _request, answer) {
      // Declined: a notice ends the awaiting state (the transcript no longer ends with the error).
      if (answer === 'abort') publish({ type: 'transcript_item', sessionId: session.summary.id, item: noticeItem('info', RETRY_DECLINED, 'retry_declined') });
      return { kind: 'none', halt: answer === 'abort' };
    },
    // Stop has nothing to close: no run waits on "Retry now" (its run ended when it gave up).
    cancelled: () => ({ kind: 'none', halt: true }),
  };
}
