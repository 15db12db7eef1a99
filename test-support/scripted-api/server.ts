import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { errorBody, httpFault } from './api-errors';
import { apiId } from './ids';
import { buildMessage, buildSearchMessage, lastUserText } from './message-builder';
import { checkContinuation, checkWebSearchHistory, checkWebSearchTool, offeredWebSearch, SearchSealer } from './web-search';
import { DEFAULT_MODELS, modelInfo, modelsPage, type ScriptedModel } from './models-page';
import { checkMedia } from './media-checks';
import { checkPrefixes, signReply } from './thinking-binding';
import { checkThinking, recordIssued, type IssuedThinking } from './thinking-checks';
import { ThinkingSigner } from './thinking-signatures';
import { checkRequest } from './request-checks';
import { answersForced, forcedTool, plainForcedCall } from './forced-tool';
import { countRequestTokens } from './token-count';
import { checkWindow } from './window-checks';
import type { Scenario, ScriptedTurn } from './scenario';
import { fillPlaceholders } from './placeholders';
import { SseWriter } from './sse-writer';
import { TurnGate } from './turn-gate';
import type { WireError } from './wire-types';

/**
 * A stand-in for api.anthropic.com on 127.0.0.1 that replays a Scenario: each POST /v1/messages
 * consumes the next turn. It speaks the real wire format (SSE or JSON), so the real SDK is the
 * client in tests, e2e fixtures and `npm run demo`.
 */

export interface RecordedRequest {
  body: unknown;
  headers: IncomingHttpHeaders;
}

export interface ScriptedServer {
  /** http://127.0.0.1:PORT, suitable for ANTHROPIC_BASE_URL. */
  url: string;
  requests: RecordedRequest[];
  /** Bodies of POST /v1/messages/count_tokens, in order (kept apart from `requests`). */
  countRequests: unknown[];
  /** Requests refused by the API's validation (request-checks.ts): each one a client bug. */
  invalid: Array<{ message: string; body: unknown }>;
  /** Replaces the scenario and resets the turn cursor. */
  setScenario(scenario: Scenario): void;
  /** With a gated scenario: lets the next `count` requests be answered. */
  release(count?: number): Promise<void>;
  close(): Promise<void>;
}

export interface ScriptedServerOptions {
  scenario: Scenario;
  port?: number;
  requireApiKey?: string;
  /** What the Models API lists, with each model's window and output cap (default: DEFAULT_MODELS). */
  models?: readonly ScriptedModel[];
  /** Answers a request before the scenario does (a turn that depends on what was asked); undefined leaves it to the scenario. */
  respond?: (body: Record<string, unknown>) => ScriptedTurn | undefined;
}

const MAX_BODY_BYTES = 50 * 1024 * 1024;
/** The API's request size limit for the Messages endpoint. */
const MAX_REQUEST_BYTES = 32 * 1024 * 1024;

export async function startScriptedServer(options: ScriptedServerOptions): Promise<ScriptedServer> {
  let scenario = options.scenario;
  let cursor = 0;
  const requests: RecordedRequest[] = [];
  const countRequests: unknown[] = [];
  const models = options.models ?? DEFAULT_MODELS;
  const invalidRequests: Array<{ message: string; body: unknown }> = [];
  const gate = new TurnGate();
  const signer = new ThinkingSigner();
  const issued: IssuedThinking = new Map();
  const sealer = new SearchSealer();
  // How many messages the request had that a pause_turn reply answered: the same request again did not send the reply back.
  let pausedAt: number | null = null;

  const nextTurn = (body: { messages?: unknown; tool_choice?: unknown; tools?: unknown }): ScriptedTurn => {
    const forced = forcedTool(body);
    if (forced && !answersForced(scenario.turns[cursor], forced)) return plainForcedCall(body, forced);
    const turn = scenario.turns[cursor];
    if (turn) {
      cursor++;
      return turn;
    }
    if (scenario.onExhausted === 'error') {
      return { kind: 'fault', fault: 'server_error' };
    }
    return { kind: 'text', text: `You said: ${lastUserText(body.messages)}` };
  };

  const handleMessages = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const raw = await readBody(req);
    if (Buffer.byteLength(raw) > MAX_REQUEST_BYTES) {
      return sendError(res, 413, errorBody('request_too_large', 'Request exceeds the maximum allowed number of bytes.'));
    }
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(raw) as Record<string, unknown>;
    } catch {
      return sendError(res, 400, errorBody('invalid_request_error', 'Request body is not valid JSON.'));
    }
    requests.push({ body, headers: req.headers });
    if (options.requireApiKey !== undefined && presentedKey(req.headers) !== options.requireApiKey) {
      return sendError(res, 401, errorBody('authentication_error', 'invalid x-api-key'));
    }
    const invalid =
      checkWebSearchTool(body.tools) ??
      checkWebSearchHistory(body.messages, sealer) ??
      checkContinuation(body.messages, pausedAt) ??
      checkRequest(body) ??
      (await checkMedia(body)) ??
      checkThinking(body, signer, issued, models) ??
      checkPrefixes(body, signer) ??
      checkWindow(body as { model: string; max_tokens: number }, models);
    if (invalid) {
      invalidRequests.push({ message: invalid, body });
      return sendError(res, 400, errorBody('invalid_request_error', invalid));
    }

    if (scenario.gated) await gate.pass();
    if (scenario.latencyMs) await new Promise((r) => setTimeout(r, scenario.latencyMs));
    const exhausted = cursor >= scenario.turns.length;
    const turn = withPlaceholders(options.respond?.(body) ?? nextTurn(body), body.messages);
    if (turn.kind === 'fault') {
      const fault = httpFault(turn.fault, turn.retryAfterSeconds, turn.retryAfterMs);
      if (fault) {
        const body = exhausted ? errorBody('api_error', `Scripted scenario "${scenario.name}" has no turns left.`) : fault.body;
        return sendError(res, fault.status, body, fault.headers);
      }
      return streamFault(res, turn);
    }
    pausedAt = null;
    let message;
    if (turn.kind === 'web_search') {
      const offered = offeredWebSearch(body.tools);
      // A script that searches where the request offers no web_search is a test bug: say so rather than play it.
      if (!offered) return sendError(res, 500, errorBody('api_error', `Scripted scenario "${scenario.name}" plays a web search, but the request offers no web_search tool.`));
      message = buildSearchMessage(turn, String(body.model), body, offered.maxUses, sealer);
      if (turn.pause) pausedAt = Array.isArray(body.messages) ? body.messages.length : null;
    } else {
      message = buildMessage(turn, String(body.model), body, signer);
    }
    signReply(body, message.content as unknown as Array<Record<string, unknown>>, signer);
    recordIssued(issued, message.content as unknown as Array<Record<string, unknown>>);
    if (body.stream !== true) {
      res.writeHead(200, { 'content-type': 'application/json', 'request-id': apiId('req') });
      res.end(JSON.stringify(message));
      return;
    }
    await new SseWriter(res, turn.delayMs ?? 5).message(message, turn.chunkChars ?? 8);
  };

  /** POST /v1/messages/count_tokens: the count the Messages endpoint would use, for any size. */
  const handleCountTokens = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(await readBody(req)) as Record<string, unknown>;
    } catch {
      return sendError(res, 400, errorBody('invalid_request_error', 'Request body is not valid JSON.'));
    }
    countRequests.push(body);
    if (options.requireApiKey !== undefined && presentedKey(req.headers) !== options.requireApiKey) {
      return sendError(res, 401, errorBody('authentication_error', 'invalid x-api-key'));
    }
    if ('max_tokens' in body) return sendError(res, 400, errorBody('invalid_request_error', 'max_tokens: Extra inputs are not permitted'));
    // Counting takes the same content the Messages endpoint takes: files filled in, https URLs only.
    const invalid = checkRequest({ ...body, max_tokens: 1 }) ?? (await checkMedia(body));
    if (invalid) return sendError(res, 400, errorBody('invalid_request_error', invalid));
    sendJson(res, 200, { input_tokens: countRequestTokens(body) });
  };

  const getModel = (res: ServerResponse, id: string): void => {
    const model = modelInfo(models, id);
    if (model) sendJson(res, 200, model);
    else sendError(res, 404, errorBody('not_found_error', `model: ${id}`));
  };

  const server = createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0] ?? '';
    const modelId = req.method === 'GET' && path.startsWith('/v1/models/') ? decodeURIComponent(path.slice('/v1/models/'.length)) : null;
    const handled =
      req.method === 'POST' && path === '/v1/messages'
        ? handleMessages(req, res)
        : req.method === 'POST' && path === '/v1/messages/count_tokens'
          ? handleCountTokens(req, res)
          : req.method === 'GET' && path === '/v1/models'
            ? Promise.resolve(sendJson(res, 200, modelsPage(models)))
            : modelId
              ? Promise.resolve(getModel(res, modelId))
              : Promise.resolve(sendError(res, 404, errorBody('not_found_error', `Not found: ${req.method} ${path}`)));
    handled.catch((error: unknown) => {
      if (!res.headersSent) sendError(res, 500, errorBody('api_error', `Scripted server failed: ${String(error)}`));
      else res.destroy();
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    countRequests,
    invalid: invalidRequests,
    setScenario(next) {
      scenario = next;
      cursor = 0;
    },
    async release(count = 1) {
      // Wait until the request is actually held, so a release never races ahead of the app.
      for (let i = 0; i < count; i++) {
        await gate.whenHeld();
        gate.release(1);
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        gate.open();
        // Stalled streams hold their sockets open on purpose: cut them so close() finishes.
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function withPlaceholders(turn: ScriptedTurn, messages: unknown): ScriptedTurn {
  if (turn.kind !== 'tool_use') return turn;
  return { ...turn, calls: turn.calls.map((call) => ({ ...call, input: fillPlaceholders(call.input, messages) })) };
}

/** The SDK sends the key as x-api-key or as a Bearer token, depending on version. */
function presentedKey(headers: IncomingHttpHeaders): string | undefined {
  const direct = headers['x-api-key'];
  if (typeof direct === 'string') return direct;
  const auth = headers.authorization;
  return auth?.startsWith('Bearer ') ? auth.slice('Bearer '.length) : undefined;
}

async function streamFault(res: ServerResponse, turn: Extract<ScriptedTurn, { kind: 'fault' }>): Promise<void> {
  const sse = new SseWriter(res, 5);
  const partial = turn.partialText ?? 'Partial answer';
  sse.start(buildMessage({ kind: 'text', text: partial }, 'scripted', {}));
  const alive = await sse.textBlock(0, partial, 8, false);
  if (!alive) return;
  if (turn.fault === 'midstream_error') {
    sse.error(errorBody('overloaded_error', 'Overloaded'));
    sse.end();
  } else if (turn.fault === 'drop') {
    res.socket?.destroy();
  }
  // 'stall': send nothing more; the socket stays open until the client or close() ends it.
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    let size = 0;
    req.on('data', (part: Buffer) => {
      size += part.length;
      if (size > MAX_BODY_BYTES) {
        reject(new Error('request body too large'));
        req.destroy();
      } else parts.push(part);
    });
    req.on('end', () => resolve(Buffer.concat(parts).toString('utf8')));
    req.on('error', reject);
  });
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', 'request-id': apiId('req'), ...headers });
  res.end(JSON.stringify(body));
}

function sendError(res: ServerResponse, status: number, body: WireError, headers: Record<string, string> = {}): void {
  sendJson(res, status, body, headers);
}
