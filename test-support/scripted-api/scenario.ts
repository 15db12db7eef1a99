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
