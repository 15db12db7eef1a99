import { z } from 'zod';
import { McpServerState } from './mcp';
import { Plan } from './plan';
import { ApprovalDecision, ApprovalRequest, EscalationAnswer, EscalationRequest } from './prompts';
import { ApiKeyState, SettingsPatch, SettingsView } from './settings';
import { RunState, SessionSummary, TranscriptItem } from './transcript';

/**
 * The one typed contract between the renderer and main, used by both shells (Electron IPC and
 * the web shell's WebSocket), the preload and the renderer. Every payload that enters main is
 * parsed with these schemas first; the types are derived from them, never written twice.
 */

/** A message may be long (pasted logs) but not unbounded: 10 MB pastes get a clear refusal. */
export const MAX_MESSAGE_CHARS = 500_000;

const SessionId = z.string().min(1).max(100);

export const MessageText = z
  .string()
  .max(MAX_MESSAGE_CHARS, {
    error: (issue) =>
      `Message is too long (${typeof issue.input === 'string' ? issue.input.length.toLocaleString('en-US') : '?'} characters; the limit is ${MAX_MESSAGE_CHARS.toLocaleString('en-US')}). Attach less text or split it up.`,
  })
  .refine((s) => s.trim().length > 0, { error: 'Message is empty: type something to send.' });

const ModelInfo = z.object({ id: z.string(), displayName: z.string() });

export const calls = {
  getAppInfo: {
    input: z.object({}).strict(),
    output: z.object({
      shell: z.enum(['electron', 'web']),
      version: z.string(),
      workspace: z.string().nullable(),
      /** settings.json was invalid and replaced by defaults at start; the damaged file is kept here. */
      settingsReset: z.object({ reason: z.string(), backupPath: z.string() }).nullable().optional(),
    }),
  },
  listSessions: {
    input: z.object({}).strict(),
    output: z.object({ sessions: z.array(SessionSummary) }),
  },
  getSession: {
    input: z.object({ sessionId: SessionId }).strict(),
    output: z.object({
      session: SessionSummary,
      transcript: z.array(TranscriptItem),
      runState: RunState,
      plan: Plan.nullable(),
      /** A question the run is paused on; it survives a reload and a restart. */
      pendingApproval: ApprovalRequest.nullable().optional(),
      pendingEscalation: EscalationRequest.nullable().optional(),
    }),
  },
  newSession: {
    input: z.object({}).strict(),
    output: SessionSummary,
  },
  sendMessage: {
    input: z.object({ sessionId: SessionId, text: MessageText }).strict(),
    output: z.object({ itemId: z.string() }),
  },
  stop: {
    input: z.object({ sessionId: SessionId }).strict(),
    output: z.object({ stopped: z.boolean() }),
  },
  /** "Retry now" after the loop gave up on API faults: runs again from the kept history. */
  retryRun: {
    input: z.object({ sessionId: SessionId }).strict(),
    output: z.object({ started: z.boolean() }),
  },
  answerApproval: {
    input: z.object({ sessionId: SessionId, requestId: z.string().min(1).max(100), decision: ApprovalDecision }).strict(),
    output: z.object({ accepted: z.boolean() }),
  },
  answerEscalation: {
    input: z.object({ sessionId: SessionId, requestId: z.string().min(1).max(100), answer: EscalationAnswer }).strict(),
    output: z.object({ accepted: z.boolean() }),
  },
  /** What "Undo plan" would do, for its confirmation. */
  previewUndoPlan: {
    input: z.object({ sessionId: SessionId }).strict(),
    output: z.object({
      files: z.array(
        z.object({ path: z.string(), action: z.enum(['restore', 'delete']), changedOutside: z.boolean() }),
      ),
    }),
  },
  undoPlan: {
    input: z.object({ sessionId: SessionId, overwriteChangedOutside: z.boolean() }).strict(),
    output: z.object({ restored: z.array(z.string()), deleted: z.array(z.string()), skipped: z.array(z.string()) }),
  },
  renameSession: {
    input: z.object({ sessionId: SessionId, title: z.string().trim().min(1, { error: 'Title is empty.' }).max(200) }).strict(),
    output: SessionSummary,
  },
  deleteSession: {
    input: z.object({ sessionId: SessionId }).strict(),
    output: z.object({ deleted: z.boolean() }),
  },
  searchSessions: {
    input: z.object({ query: z.string().trim().min(1).max(500) }).strict(),
    output: z.object({ results: z.array(z.object({ session: SessionSummary, snippet: z.string() })) }),
  },
  getMcpStates: {
    input: z.object({}).strict(),
    output: z.object({ servers: z.array(McpServerState) }),
  },
  restartMcpServer: {
    input: z.object({ name: z.string().min(1).max(200) }).strict(),
    output: z.object({ restarted: z.boolean() }),
  },
  /** Electron: a folder dialog; the web shell answers with its --workspace (or an error). */
  chooseWorkspace: {
    input: z.object({ sessionId: SessionId }).strict(),
    output: z.object({ workspace: z.string().nullable() }),
  },
  exportPlan: {
    input: z.object({ sessionId: SessionId }).strict(),
    /** The Markdown, and where it was saved (Electron save dialog) or null (web: downloaded by the page). */
    output: z.object({ markdown: z.string(), fileName: z.string(), savedTo: z.string().nullable() }),
  },
  getSettings: {
    input: z.object({}).strict(),
    output: SettingsView,
  },
  setSettings: {
    input: z.object({ patch: SettingsPatch }).strict(),
    output: SettingsView,
  },
  setApiKey: {
    /** null clears a key typed in Settings (an environment key stays). */
    input: z
      .object({
        apiKey: z
          .string()
          .trim()
          .min(1, { error: 'API key is empty.' })
          .max(500, { error: 'API key is too long.' })
          .regex(/^[\x21-\x7e]+$/, { error: 'API key has spaces or unusual characters: paste it again.' })
          .nullable(),
      })
      .strict(),
    output: ApiKeyState,
  },
  listModels: {
    input: z.object({}).strict(),
    output: z.object({ models: z.array(ModelInfo), source: z.enum(['api', 'fallback']) }),
  },
  getPlan: {
    input: z.object({ sessionId: SessionId }).strict(),
    output: z.object({ plan: Plan.nullable() }),
  },
} as const;

export type Calls = typeof calls;
export type CallName = keyof Calls;
export type CallInput<N extends CallName> = z.input<Calls[N]['input']>;
export type CallOutput<N extends CallName> = z.infer<Calls[N]['output']>;
export const CALL_NAMES = Object.keys(calls) as CallName[];

export function isCallName(name: unknown): name is CallName {
  return typeof name === 'string' && Object.prototype.hasOwnProperty.call(calls, name);
}

export const WaypointEvent = z.discriminatedUnion('type', [
  z.object({ type: z.literal('transcript_item'), sessionId: SessionId, item: TranscriptItem }),
  z.object({ type: z.literal('message_delta'), sessionId: SessionId, itemId: z.string(), text: z.string() }),
  z.object({
    type: z.literal('message_done'),
    sessionId: SessionId,
    itemId: z.string(),
    stopReason: z.string().nullable(),
  }),
  z.object({ type: z.literal('run_state'), sessionId: SessionId, state: RunState }),
  z.object({ type: z.literal('session_updated'), session: SessionSummary }),
  z.object({ type: z.literal('plan_updated'), sessionId: SessionId, version: z.number().int(), plan: Plan }),
  z.object({ type: z.literal('settings_updated'), view: SettingsView }),
  z.object({ type: z.literal('approval_requested'), sessionId: SessionId, request: ApprovalRequest }),
  z.object({
    type: z.literal('approval_resolved'),
    sessionId: SessionId,
    requestId: z.string(),
    decision: z.enum(['approved', 'denied', 'cancelled']),
  }),
  z.object({ type: z.literal('escalation_requested'), sessionId: SessionId, request: EscalationRequest }),
  z.object({
    type: z.literal('escalation_resolved'),
    sessionId: SessionId,
    requestId: z.string(),
    answer: z.enum(['skip', 'abort', 'guidance', 'cancelled']),
  }),
  z.object({ type: z.literal('session_deleted'), sessionId: SessionId }),
  z.object({ type: z.literal('mcp_state'), servers: z.array(McpServerState) }),
  z.object({
    type: z.literal('error'),
    sessionId: SessionId.optional(),
    code: z.string().optional(),
    message: z.string(),
  }),
]);
export type WaypointEvent = z.infer<typeof WaypointEvent>;
export type WaypointEventType = WaypointEvent['type'];
export type EventOf<T extends WaypointEventType> = Extract<WaypointEvent, { type: T }>;

/** Errors that cross the boundary: a code the UI can act on and a sentence a person can read. */
export const CallErrorCode = z.enum(['invalid_input', 'unknown_call', 'not_found', 'busy', 'internal']);
export type CallErrorCode = z.infer<typeof CallErrorCode>;
export const CallError = z.object({ code: CallErrorCode, message: z.string() });
export type CallError = z.infer<typeof CallError>;

export type CallResult<T> = { ok: true; value: T } | { ok: false; error: CallError };

/** The object the renderer sees (window.waypoint in Electron, a WebSocket client on the web). */
export interface WaypointApi {
  call<N extends CallName>(name: N, input: CallInput<N>): Promise<CallOutput<N>>;
  /** Returns an unsubscribe function. */
  onEvent(listener: (event: WaypointEvent) => void): () => void;
}

/** Thrown on the renderer side when a call fails; carries the contract's error code. */
export class WaypointCallError extends Error {
  constructor(
    readonly code: CallErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'WaypointCallError';
  }
}

/** Electron IPC channel names: the only two, kept here so no string is repeated elsewhere. */
export const IPC_CALL_CHANNEL = 'waypoint:call';
export const IPC_EVENT_CHANNEL = 'waypoint:event';

/** Web shell wire format (WebSocket text frames, JSON). */
export const WsClientFrame = z
  .object({ id: z.number().int().nonnegative(), call: z.string().max(100), input: z.unknown() })
  .strict();
export type WsClientFrame = z.infer<typeof WsClientFrame>;

export type WsServerFrame =
  | { kind: 'result'; id: number; result: CallResult<unknown> }
  | { kind: 'event'; event: WaypointEvent };

/** Formats zod issues as one readable sentence for a CallError. */
export function describeZodError(error: z.ZodError): string {
  return error.issues
    .map((issue) => (issue.path.length ? `${issue.path.join('.')}: ${issue.message}` : issue.message))
    .join('; ');
}
