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
  server_tool_use?: { web_search_requests: number; web_fetch_requests: number };
}

export interface WireSearchResult {
  type: 'web_search_result';
  title: string;
  url: string;
  page_age: string | null;
  encrypted_content: string;
}

export interface WireCitation {
  type: 'web_search_result_location';
  url: string;
  title: string | null;
  cited_text: string;
  encrypted_index: string;
}

export type WireSearchErrorCode = 'invalid_tool_input' | 'unavailable' | 'max_uses_exceeded' | 'too_many_requests' | 'query_too_long';

export type WireContentBlock =
  | { type: 'text'; text: string; citations?: WireCitation[] }
  | { type: 'server_tool_use'; id: string; name: 'web_search'; input: { query: string } }
  | { type: 'web_search_tool_result'; tool_use_id: string; content: WireSearchResult[] | { type: 'web_search_tool_result_error'; error_code: WireSearchErrorCode } }
  | { type: 'tool_use'; id: string; name: string; input: unknown }
  | { type: 'thinking'; thinking: string; signature: string }
  | { type: 'redacted_thinking'; data: string };

export interface WireMessage {
  id: string;
  type: 'message';
  role: 'assistant';
  model: string;
  content: WireContentBlock[];
  stop_reason: 'end_turn' | 'max_tokens' | 'tool_use' | 'pause_turn' | null;
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
