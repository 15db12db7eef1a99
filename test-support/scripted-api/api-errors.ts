import { apiId } from './ids';
import type { ScriptedFault } from './scenario';
import type { WireError, WireErrorType } from './wire-types';

/** The status and error body the real API answers for each HTTP-level fault. */
export interface HttpFault {
  status: number;
  body: WireError;
  headers: Record<string, string>;
}

export function errorBody(type: WireErrorType, message: string): WireError {
  return { type: 'error', error: { type, message }, request_id: apiId('req') };
}

export function httpFault(fault: ScriptedFault, retryAfterSeconds = 1, retryAfterMs?: number): HttpFault | null {
  const http = baseFault(fault, retryAfterSeconds);
  // Only faults worth retrying carry a retry hint, as with the real API.
  if (http && retryAfterMs !== undefined && http.status >= 429) http.headers['retry-after-ms'] = String(retryAfterMs);
  return http;
}

function baseFault(fault: ScriptedFault, retryAfterSeconds: number): HttpFault | null {
  switch (fault) {
    case 'unauthorized':
      return { status: 401, body: errorBody('authentication_error', 'invalid x-api-key'), headers: {} };
    case 'bad_request':
      return {
        status: 400,
        body: errorBody('invalid_request_error', 'messages: text content blocks must be non-empty'),
        headers: {},
      };
    case 'rate_limit':
      return {
        status: 429,
        body: errorBody(
          'rate_limit_error',
          'This request would exceed the rate limit for your organization of 50 requests per minute.',
        ),
        headers: { 'retry-after': String(retryAfterSeconds) },
      };
    case 'overloaded':
      return { status: 529, body: errorBody('overloaded_error', 'Overloaded'), headers: {} };
    case 'server_error':
      return { status: 500, body: errorBody('api_error', 'Internal server error'), headers: {} };
    case 'midstream_error':
    case 'drop':
    case 'stall':
      return null; // these answer 200 and fail inside the stream
  }
}
