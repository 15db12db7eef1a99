import { z } from 'zod';
import type { TranscriptItem } from './transcript';

/** Error notices the loop gives up on after its API retry budget: "Retry now" can resend the kept message. */
const RETRYABLE = new Set(['overloaded', 'rate_limit', 'server', 'network', 'stalled']);

/**
 * Whether a chat whose transcript ends with this item awaits "Retry now" (once no run goes on):
 * the run gave up on transient API faults, and the user's message is kept to be sent again.
 */
export function awaitsRetry(last: TranscriptItem | undefined): last is Extract<TranscriptItem, { kind: 'notice' }> {
  return last?.kind === 'notice' && last.level === 'error' && !!last.code && RETRYABLE.has(last.code);
}

/** The answer to a chat awaiting "Retry now": send the kept message again, or leave it unsent. */
export const RetryAnswer = z.enum(['retry', 'abort'], { error: 'the API failure is answered with retry or abort' });
export type RetryAnswer = z.infer<typeof RetryAnswer>;
