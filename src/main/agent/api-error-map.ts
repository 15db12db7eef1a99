import {
  APIConnectionError,
  APIError,
  AuthenticationError,
  BadRequestError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
} from '@anthropic-ai/sdk';

/** Why a run ended badly, in a form a person can act on. */
export type FailureCode = 'auth' | 'bad_request' | 'rate_limit' | 'overloaded' | 'server' | 'network' | 'stalled' | 'no_key';

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

const byType: Record<string, (apiMessage: string) => RunFailure> = {
  overloaded_error: () => ({ code: 'overloaded', text: 'Claude is overloaded right now (529). Wait a moment, then send your message again.' }),
  rate_limit_error: () => ({ code: 'rate_limit', text: 'The Anthropic API is rate-limiting this key (429). Wait a minute, then send again; if it keeps happening, check your plan limits in the Anthropic Console.' }),
  api_error: () => ({ code: 'server', text: 'The Anthropic API had an internal error. Send your message again; if it persists, check status.anthropic.com.' }),
  authentication_error: () => ({ code: 'auth', text: 'Claude rejected the API key (401). Open Settings and paste a valid key.' }),
  invalid_request_error: (m) => ({ code: 'bad_request', text: `Claude refused the request (400): ${m} Try a shorter message, or start a new chat.` }),
};

/** Maps whatever the SDK threw to one clear notice; the key is redacted from every word. */
export function describeFailure(error: unknown, apiKey: string | null, sdkRetries: number): RunFailure {
  const failure = classify(error, sdkRetries);
  return { ...failure, text: redactKey(failure.text, apiKey) };
}

function classify(error: unknown, sdkRetries: number): RunFailure {
  const retried = sdkRetries > 0 ? ` after ${sdkRetries} automatic ${sdkRetries === 1 ? 'retry' : 'retries'}` : '';
  if (error instanceof StalledStreamError) {
    return { code: 'stalled', text: `Claude's reply stalled (no data for ${seconds(error.timeoutMs)}), so Waypoint stopped waiting. The partial reply is kept; send again to continue.` };
  }
  if (error instanceof APIConnectionError) {
    return { code: 'network', text: `Waypoint could not reach the Anthropic API${retried} (${error.message}). Check your internet connection or proxy, then send again.` };
  }
  if (error instanceof AuthenticationError) return byType.authentication_error!('');
  if (error instanceof PermissionDeniedError) {
    return { code: 'auth', text: 'This API key is not allowed to use that model or feature (403). Choose another model in Settings, or use a key with access.' };
  }
  if (error instanceof NotFoundError) {
    return { code: 'bad_request', text: 'Claude did not recognise the request (404), usually an unknown model id. Pick a model in Settings.' };
  }
  if (error instanceof BadRequestError) return byType.invalid_request_error!(apiMessage(error));
  if (error instanceof RateLimitError) {
    return { code: 'rate_limit', text: `The Anthropic API is rate-limiting this key (429)${retried}. Wait a minute, then send again; if it keeps happening, check your plan limits in the Anthropic Console.` };
  }
  if (error instanceof APIError) {
    if (error.status === 529 || error.type === 'overloaded_error') {
      const midStream = error.status === undefined ? ' in the middle of its reply' : '';
      return { code: 'overloaded', text: `Claude is overloaded right now (529)${midStream}${retried}. Wait a moment, then send your message again.` };
    }
    if (typeof error.status === 'number' && error.status >= 500) {
      return { code: 'server', text: `The Anthropic API had an internal error (${error.status})${retried}. Send your message again; if it persists, check status.anthropic.com.` };
    }
    // An `error` event inside a 200 stream has no status: its body's type says what happened.
    if (error.type && byType[error.type]) return byType[error.type]!(apiMessage(error));
    if (typeof error.status === 'number' && error.status >= 400) return byType.invalid_request_error!(apiMessage(error));
  }
  // A socket cut mid-stream surfaces as a plain TypeError/Error from fetch's body reader.
  const detail = error instanceof Error ? error.message : String(error);
  return { code: 'network', text: `The connection to the Anthropic API broke off (${detail}). The partial reply is kept; check your connection and send again.` };
}

function apiMessage(error: APIError): string {
  const text = error.apiMessage ?? error.message;
  return text.endsWith('.') ? text : `${text}.`;
}
