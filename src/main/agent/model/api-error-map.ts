import {
  APIConnectionError,
  APIError,
  AuthenticationError,
  BadRequestError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
} from '@anthropic-ai/sdk/error';

/** Why a run ended badly, in a form a person can act on (the code of the run's error notice). */
export const FAILURE_CODES = ['auth', 'bad_request', 'rate_limit', 'overloaded', 'server', 'network', 'stalled', 'no_key'] as const;
export type FailureCode = (typeof FAILURE_CODES)[number];

export interface RunFailure {
  code: FailureCode;
  text: string;
}

/** Thrown by the stream reader when no event arrived for stallTimeoutMs. */
export class StalledStreamError extends Error {
  constructor(readonly timeoutMs: number) {
    super(`No data from the Anthropic API for ${Math.round(timeoutMs / 1000)} s.`);
    this.name = 'StalledStreamError';
  }
}

/** Replaces the key wherever it might appear, so no notice or log line ever carries it. */
export function redactKey(text: string, apiKey: string | null): string {
  return apiKey && apiKey.length >= 4 ? text.split(apiKey).join('[redacted key]') : text;
}

function seconds(ms: number): string {
  return ms >= 1000 ? `${Math.round(ms / 1000)} s` : `${ms} ms`;
}

/** Said after every transient fault the loop gave up on: nothing is lost and one click retries. */
const KEPT = 'Your message is kept: press "Retry now" to send it again, or write another message.';

function afterRetries(retries: number): string {
  return retries > 0 ? ` Waypoint retried ${retries} ${retries === 1 ? 'time' : 'times'} without success.` : '';
}

const byType: Record<string, (apiMessage: string, retried: string) => RunFailure> = {
  overloaded_error: (_, retried) => ({ code: 'overloaded', text: `Claude is overloaded right now (529).${retried} ${KEPT}` }),
  rate_limit_error: (_, retried) => ({ code: 'rate_limit', text: `The Anthropic API is rate-limiting this key (429).${retried} Wait a minute; if it keeps happening, check your plan limits in the Anthropic Console. ${KEPT}` }),
  api_error: (_, retried) => ({ code: 'server', text: `The Anthropic API had an internal error.${retried} If it persists, check status.anthropic.com. ${KEPT}` }),
  timeout_error: (_, retried) => ({ code: 'server', text: `The Anthropic API timed out.${retried} ${KEPT}` }),
  authentication_error: () => ({ code: 'auth', text: 'Claude rejected the API key (401). Open Settings and paste a valid key.' }),
  invalid_request_error: (m) => ({ code: 'bad_request', text: `Claude refused the request (400): ${m} Try a shorter message, or start a new chat.` }),
};

/**
 * Maps whatever the SDK threw to one clear notice; the key is redacted from every word.
 * `retries` is how many times the loop retried before giving up.
 */
export function describeFailure(error: unknown, apiKey: string | null, retries: number): RunFailure {
  const failure = classify(error, afterRetries(retries));
  return { ...failure, text: redactKey(failure.text, apiKey) };
}

function classify(error: unknown, retried: string): RunFailure {
  if (error instanceof StalledStreamError) {
    return { code: 'stalled', text: `Claude's reply stalled (no data for ${seconds(error.timeoutMs)}), so Waypoint stopped waiting.${retried} ${KEPT}` };
  }
  if (error instanceof APIConnectionError) {
    return { code: 'network', text: `Waypoint could not reach the Anthropic API (${error.message}).${retried} Check your internet connection or proxy. ${KEPT}` };
  }
  if (error instanceof AuthenticationError) return byType.authentication_error!('', retried);
  if (error instanceof PermissionDeniedError) {
    return { code: 'auth', text: 'This API key is not allowed to use that model or feature (403). Choose another model in Settings, or use a key with access.' };
  }
  if (error instanceof NotFoundError) {
    return { code: 'bad_request', text: 'Claude did not recognise the request (404), usually an unknown model id. Pick a model in Settings.' };
  }
  if (error instanceof BadRequestError) return byType.invalid_request_error!(apiMessage(error), retried);
  if (error instanceof RateLimitError) return byType.rate_limit_error!('', retried);
  if (error instanceof APIError) {
    if (error.status === 529 || error.type === 'overloaded_error') {
      const midStream = error.status === undefined ? ' in the middle of its reply' : '';
      return { code: 'overloaded', text: `Claude is overloaded right now (529)${midStream}.${retried} ${KEPT}` };
    }
    if (typeof error.status === 'number' && error.status >= 500) {
      return { code: 'server', text: `The Anthropic API had an internal error (${error.status}).${retried} If it persists, check status.anthropic.com. ${KEPT}` };
    }
    // An `error` event inside a 200 stream has no status: its body's type says what happened.
    if (error.type && byType[error.type]) return byType[error.type]!(apiMessage(error), retried);
    if (typeof error.status === 'number' && error.status >= 400) return byType.invalid_request_error!(apiMessage(error), retried);
  }
  // A socket cut mid-stream surfaces as a plain TypeError/Error from fetch's body reader.
  const detail = error instanceof Error ? error.message : String(error);
  return { code: 'network', text: `The connection to the Anthropic API broke off (${detail}).${retried} Check your connection. ${KEPT}` };
}

function apiMessage(error: APIError): string {
  const text = error.apiMessage ?? error.message;
  return text.endsWith('.') ? text : `${text}.`;
}
