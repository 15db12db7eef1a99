/**
 * Scenario scripts for the scripted Messages-API server. Each POST /v1/messages consumes the
 * next turn, in order. Scenarios are plain data so tests, e2e fixtures and `npm run demo`
 * share them.
 */

export interface ScriptedToolCall {
  name: string;
  input: unknown;
  /** Defaults to a generated toolu_… id. */
  id?: string;
}

export type ScriptedFault =
  | 'unauthorized' // 401 authentication_error
  | 'bad_request' // 400 invalid_request_error
  | 'rate_limit' // 429 with retry-after
  | 'overloaded' // 529 overloaded_error
  | 'server_error' // 500 api_error
  | 'midstream_error' // 200, some deltas, then `event: error` (overloaded_error)
  | 'drop' // 200, some deltas, then the socket is destroyed
  | 'stall'; // 200, some deltas, then nothing until the client gives up

/**
 * Extended thinking in a reply: thinking blocks (text, streamed as thinking_delta, signed with
 * signature_delta) and redacted ones, before the reply's other blocks. Sent only when the request
 * asked for thinking, as the real API does.
 */
export interface ScriptedThinking {
  thinking?: string[];
  /** How many redacted_thinking blocks follow the thinking blocks. */
  redacted?: number;
}

/** One web search of a scripted reply: its results, or the error the API reports on the tool's result. */
export interface ScriptedSearch {
  query: string;
  results?: ScriptedSearchResult[];
  error?: 'invalid_tool_input' | 'unavailable' | 'too_many_requests' | 'query_too_long';
}

export interface ScriptedSearchResult {
  title: string;
  url: string;
  pageAge?: string;
  /** What the page says: sealed in encrypted_content, and the cited_text of a citation. */
  text: string;
}

/** A piece of a web-search answer; `cite` names results (search index, result index) it cites. */
export interface ScriptedAnswerPart {
  text: string;
  cite?: Array<{ search: number; result: number }>;
}

export type ScriptedTurn =
  | ({
      kind: 'text';
      text: string;
      /** Characters per text_delta (default 8). */
      chunkChars?: number;
      /** Delay between deltas in ms (default 5). */
      delayMs?: number;
      stopReason?: 'end_turn' | 'max_tokens';
      /** Answers a request that forces a tool, without calling it (the real API never does: a malformed reply to test). */
      ignoresToolChoice?: boolean;
    } & ScriptedThinking)
  | ({
      kind: 'tool_use';
      /** Optional text before the tool calls. */
      text?: string;
      calls: ScriptedToolCall[];
      chunkChars?: number;
      delayMs?: number;
      /** Answers a request that forces a tool, without calling it (see forced-tool.ts). */
      ignoresToolChoice?: boolean;
    } & ScriptedThinking)
  | {
      /**
       * A reply that uses the server-side web_search tool (web-search.ts): text, then each search
       * as a server_tool_use block and its web_search_tool_result, then the answer, whose cited
       * pieces carry citations of those results. Played only when the request offers web_search.
       */
      kind: 'web_search';
      text?: string;
      searches: ScriptedSearch[];
      answer?: ScriptedAnswerPart[];
      /** stop_reason "pause_turn": the reply ends after its searches; the client sends it back as is to go on. */
      pause?: boolean;
      chunkChars?: number;
      delayMs?: number;
    }
  | {
      kind: 'fault';
      fault: ScriptedFault;
      /** 429: the `retry-after` header in seconds (default 1). */
      retryAfterSeconds?: number;
      /** 429/529/500: also send `retry-after-ms`, which clients prefer over `retry-after`. */
      retryAfterMs?: number;
      /** Text streamed before a mid-stream fault. */
      partialText?: string;
    };

export interface Scenario {
  name: string;
  description?: string;
  turns: ScriptedTurn[];
  /** Every request waits for `ScriptedServer.release()` before it is answered (e2e pacing). */
  gated?: boolean;
  /** A pause before each answer starts, like Claude thinking (demo pacing). */
  latencyMs?: number;
  /**
   * When the turns run out: 'echo' replies "You said: <last user text>" (default), 'error'
   * answers 500 with a message saying the script is exhausted.
   */
  onExhausted?: 'echo' | 'error';
}
