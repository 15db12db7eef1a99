/**
 * The slice of the Messages API wire format the scripted server speaks. Written out here (not
 * imported from the SDK) so the server is an independent implementation the SDK is tested against.
 */

export interface WireUsage {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
  service_tier: 'standard';
}

export type WireContentBlock =
  | { type: 'text'; text: string }
  | { type: 'tool_use'; id: string; name: string; input: unknown }
  | { type: 'thinking'; thinking: string; signature: string }
  | { type: 'redacted_thinking'; data: string };

export interface WireMessage {
  id: string;
  type: 'message';
  role: 'assistant';
  model: string;
  content: WireContentBlock[];
  stop_reason: 'end_turn' | 'max_tokens' | 'tool_use' | null;
  stop_sequence: null;
  usage: WireUsage;
}

/** The error types the real API puts in `{"type":"error","error":{"type":...}}`. */
export type WireErrorType =
  | 'invalid_request_error'
  | 'authentication_error'
  | 'permission_error'
  | 'not_found_error'
  | 'rate_limit_error'
  | 'api_error'
  | 'request_too_large'
  | 'overloaded_error';

export interface WireError {
  type: 'error';
  error: { type: WireErrorType; message: string };
  request_id: string;
}
