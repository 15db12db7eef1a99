import { classifyApiFault, FAULT_REASONS, type TransientFaultKind } from './api-fault-classifier';

/**
 * The loop's own retry policy for API faults (the SDK's is switched off for the streaming
 * request, because it cannot retry a stream that failed half-way). Pure: error in, decision out;
 * time and randomness are injected so tests can pin them.
 */

export interface ApiRetryPolicy {
  /** Retries of one request before giving up (the first try is not counted). */
  maxAttempts: number;
  /** The first backoff; each further retry doubles it. */
  baseDelayMs: number;
  /** No computed backoff waits longer than this. */
  maxDelayMs: number;
  /** A server's retry-after is honoured up to this long. */
  maxRetryAfterMs: number;
  /** In [0, 1): jitter, so many clients do not retry in lockstep. */
  random: () => number;
  /** Epoch ms: to read an HTTP-date retry-after. */
  now: () => number;
}

export const DEFAULT_API_RETRY_POLICY: ApiRetryPolicy = {
  maxAttempts: 5,
  baseDelayMs: 1_000,
  maxDelayMs: 30_000,
  maxRetryAfterMs: 60_000,
  random: Math.random,
  now: Date.now,
};

export function resolveRetryPolicy(patch: Partial<ApiRetryPolicy> = {}): ApiRetryPolicy {
  return { ...DEFAULT_API_RETRY_POLICY, ...patch };
}

export type RetryDecision =
  | {
      kind: 'retry';
      fault: TransientFaultKind;
      /** For the run state: "Claude is overloaded". */
      reason: string;
      delayMs: number;
      /** Which retry this will be, from 1. */
      attempt: number;
      maxAttempts: number;
      /** True when the delay is the server's retry-after rather than our backoff. */
      fromRetryAfter: boolean;
    }
  | {
      kind: 'give_up';
      why: 'not_retryable' | 'budget_exhausted';
      /** Set when the fault was transient but the budget ran out. */
      fault: TransientFaultKind | null;
      /** Retries already made. */
      attempts: number;
      maxAttempts: number;
    };

/**
 * Decides what to do about `error`, given how many retries this request has already had.
 * Exponential backoff (base·2^(n-1), capped) minus up to 25 % jitter; a retry-after from the
 * API wins (capped at maxRetryAfterMs).
 */
export function decideApiRetry(error: unknown, retriesSoFar: number, policy: ApiRetryPolicy = DEFAULT_API_RETRY_POLICY): RetryDecision {
  const { maxAttempts } = policy;
  const fault = classifyApiFault(error, policy.now());
  if (!fault.retryable) return { kind: 'give_up', why: 'not_retryable', fault: null, attempts: retriesSoFar, maxAttempts };
  if (retriesSoFar >= maxAttempts) return { kind: 'give_up', why: 'budget_exhausted', fault: fault.kind, attempts: retriesSoFar, maxAttempts };
  const attempt = retriesSoFar + 1;
  const fromRetryAfter = fault.retryAfterMs !== null;
  const delayMs = fromRetryAfter ? Math.min(fault.retryAfterMs!, policy.maxRetryAfterMs) : backoffDelayMs(attempt, policy);
  return { kind: 'retry', fault: fault.kind, reason: FAULT_REASONS[fault.kind], delayMs: Math.round(delayMs), attempt, maxAttempts, fromRetryAfter };
}

/** The wait before retry number `attempt` (from 1) when the server gave no retry-after. */
export function backoffDelayMs(attempt: number, policy: Pick<ApiRetryPolicy, 'baseDelayMs' | 'maxDelayMs' | 'random'>): number {
  const exponential = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, attempt - 1));
  const jitter = 1 - 0.25 * Math.min(Math.max(policy.random(), 0), 1);
  return exponential * jitter;
}
