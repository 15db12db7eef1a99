import { AnthropicError, APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from '@anthropic-ai/sdk/error';
import { StalledStreamError } from './api-error-map';

/**
 * Which API failures are passing weather (overload, rate limits, server trouble, a dropped or
 * stalled stream) and which are the request's own fault (400/401/403/404/413…). Pure: it only
 * reads the error the SDK (or our stall watchdog) threw.
 */

export type TransientFaultKind = 'overloaded' | 'rate_limit' | 'server' | 'timeout' | 'network' | 'stalled';

export type FaultClass =
  | { retryable: true; kind: TransientFaultKind; retryAfterMs: number | null }
  | { retryable: false };

/** The words the run state shows while the loop waits ("Claude is overloaded — retrying in 8 s"). */
export const FAULT_REASONS: Record<TransientFaultKind, string> = {
  overloaded: 'Claude is overloaded',
  rate_limit: 'Rate limited by the API',
  server: 'The Anthropic API had a server error',
  timeout: 'The request timed out',
  network: 'Connection dropped',
  stalled: 'The stream stalled',
};

/** Error types an `event: error` inside a 200 stream can carry that are worth another try. */
const TRANSIENT_STREAM_TYPES: Partial<Record<string, TransientFaultKind>> = {
  overloaded_error: 'overloaded',
  api_error: 'server',
  rate_limit_error: 'rate_limit',
  timeout_error: 'timeout',
};

/** Socket-level causes (Node/undici) that mean the connection itself went away. */
const NETWORK_CODES = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ENETUNREACH',
  'EHOSTUNREACH',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
]);

const NOT_RETRYABLE: FaultClass = { retryable: false };
const transient = (kind: TransientFaultKind, retryAfterMs: number | null = null): FaultClass => ({ retryable: true, kind, retryAfterMs });

export function classifyApiFault(error: unknown, now: number = Date.now()): FaultClass {
  if (error instanceof StalledStreamError) return transient('stalled');
  if (error instanceof APIUserAbortError) return NOT_RETRYABLE; // the user's Stop, never retried
  if (error instanceof APIConnectionTimeoutError) return transient('timeout');
  if (error instanceof APIConnectionError) return transient('network');
  if (error instanceof APIError) return classifyApiError(error, now);
  if (isDroppedConnection(error)) return transient('network');
  return NOT_RETRYABLE;
}

function classifyApiError(error: APIError, now: number): FaultClass {
  const status = error.status;
  if (status === undefined) {
    // An `event: error` in the middle of a stream: the SDK does not retry these; its type says why.
    const kind = error.type ? TRANSIENT_STREAM_TYPES[error.type] : undefined;
    return kind ? transient(kind) : NOT_RETRYABLE;
  }
  // The API can say outright whether a retry makes sense; it knows best.
  const shouldRetry = error.headers?.get('x-should-retry');
  if (shouldRetry === 'false') return NOT_RETRYABLE;
  const retryAfterMs = parseRetryAfter(error.headers, now);
  if (status === 429) return transient('rate_limit', retryAfterMs);
  if (status === 529 || error.type === 'overloaded_error') return transient('overloaded', retryAfterMs);
  if (status === 408 || status === 504) return transient('timeout', retryAfterMs);
  if (status >= 500) return transient('server', retryAfterMs);
  if (shouldRetry === 'true') return transient('server', retryAfterMs);
  return NOT_RETRYABLE;
}

/**
 * A socket cut mid-stream reaches us as the SDK's AnthropicError wrapping undici's
 * `TypeError: terminated`, or as a truncated stream. A bug in our own code must not look like
 * this, so only network-shaped causes count.
 */
function isDroppedConnection(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (error instanceof AnthropicError && /^(stream ended without|request ended without)/.test(error.message)) return true;
  for (let cause: unknown = error, depth = 0; cause instanceof Error && depth < 4; cause = cause.cause, depth++) {
    const code = (cause as { code?: unknown }).code;
    if (typeof code === 'string' && NETWORK_CODES.has(code)) return true;
    if (cause instanceof TypeError && /^(terminated|fetch failed)$|other side closed|socket/i.test(cause.message)) return true;
  }
  return false;
}

/**
 * How long the API asked us to wait: `retry-after-ms` (milliseconds), else `retry-after`
 * (seconds or an HTTP date). Null when absent, unreadable or not in the future.
 */
export function parseRetryAfter(headers: Headers | undefined, now: number): number | null {
  const ms = headers?.get('retry-after-ms');
  if (ms) {
    const value = Number.parseFloat(ms);
    if (Number.isFinite(value) && value > 0) return value;
  }
  const raw = headers?.get('retry-after');
  if (!raw) return null;
  const seconds = Number.parseFloat(raw);
  if (/^\s*[\d.]+\s*$/.test(raw)) return Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : null;
  const at = Date.parse(raw);
  return Number.isFinite(at) && at > now ? at - now : null;
}
