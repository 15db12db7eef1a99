import type { StoreApi } from 'zustand/vanilla';
import type { CallOutput, WaypointApi } from '../../../shared/contract';
import type { Plan } from '../../../shared/plan';
import type { SubAgent, SubAgentLine } from '../../../shared/subagents';
import type { PlanUpdate } from '../../../shared/plan-change';
import type { SettingsPatch, SettingsView } from '../../../shared/settings';
import type { RunState, SessionSummary, TranscriptItem } from '../../../shared/transcript';
import type { ConnectionStatus } from '../api/connection';
import type { HeldDelta } from './delta-batcher';
import type { ApprovalSlice } from './approval-slice';
import type { EscalationSlice } from './escalation-slice';
import type { McpSlice } from './mcp-slice';
import type { SessionsManageSlice } from './sessions-manage-slice';
import type { UiSlice } from './ui-slice';
import type { LayoutSlice } from './layout-slice';
import type { DraftsSlice } from './drafts-slice';
import type { McpNoticeSlice } from './mcp-notice-slice';
import type { QuestionSlice } from './question-slice';
import type { RerunSlice } from './rerun-slice';
import type { ApprovalRulesSlice } from './approval-rules-slice';
import type { PlanEditSlice } from './plan-edit-slice';
import type { ContextSlice } from './context-slice';
import type { AttachmentsSlice } from './attachments-slice';
import type { FindSlice } from './find-slice';
import type { TranscriptPagesSlice } from './transcript-pages-slice';
import type { ChatWriterSlice } from './chat-writer-slice';
import type { ProjectSlice } from './project-slice';
import type { ChangesSlice } from './changes-slice';
import type { TranscriptWindow } from './transcript-window';
import type { WaitingPromptsSlice } from './waiting-prompts-slice';

export type ModelInfo = CallOutput<'listModels'>['models'][number];
export type AppInfo = CallOutput<'getAppInfo'>;
export type SessionSnapshot = CallOutput<'getSession'>;

/** Whether the first load from main has happened: the UI shows a retry screen until it has. */
export type LoadState = { status: 'loading' } | { status: 'ready' } | { status: 'unreachable'; message: string };

/** The outcome of a user action, so a form can keep its input and show the reason. */
export type ActionResult = { ok: true } | { ok: false; message: string };

export interface SessionsSlice {
  sessions: SessionSummary[];
  currentSessionId: string | null;
  setSessions(sessions: SessionSummary[]): void;
  upsertSession(session: SessionSummary): void;
  /** Makes the chat current and loads its snapshot from main. */
  openSession(sessionId: string): Promise<ActionResult>;
  /** Loads a chat's snapshot again (its transcript window went out of step with main). */
  reloadSession(sessionId: string): Promise<ActionResult>;
  /** `carryDraft` (default): the window switches to the new chat at once and what is typed meanwhile goes with it. */
  newChat(options?: { carryDraft: boolean }): Promise<ActionResult>;
  /** The New chat main is making now, if any: a message sent meanwhile waits for it instead of making another. */
  newChatInFlight: Promise<ActionResult> | null;
  /**
   * The current chat's workspace: `folder` as typed (web shell), or Electron's folder dialog
   * without it. A chat is made first when none is open. Errors of a typed folder are returned
   * (the dialog shows them); the dialog's are shown in the error banner.
   */
  chooseWorkspace(folder?: string): Promise<ActionResult>;
  /** The web shell's "Choose a workspace" dialog (header button, the composer's notice). */
  workspaceDialogOpen: boolean;
  setWorkspaceDialogOpen(open: boolean): void;
}

export interface ChatSlice {
  /** Per chat, the end of its transcript this window holds (transcript-window.ts); absent until the chat is opened. */
  transcripts: Record<string, TranscriptWindow>;
  runStates: Record<string, RunState>;
  /** The polite screen-reader status: what the current chat's run is doing, or how its last turn ended. */
  announcement: string;
  /** Puts a short message in the polite status (a shortcut that had nothing to act on). */
  announce(text: string): void;
  composerError: string | null;
  applySnapshot(snapshot: SessionSnapshot): void;
  /** transcript_item; `index` is main's position of the item (absent: a new item). */
  upsertItem(sessionId: string, item: TranscriptItem, index?: number): void;
  /** message_delta; `offset` is where the text starts in the item's text. */
  appendDelta(sessionId: string, itemId: string, text: string, offset?: number): void;
  /** A frame's message_deltas for every chat, applied as one store update. */
  appendDeltas(batch: readonly HeldDelta[]): void;
  finishMessage(sessionId: string, itemId: string, stopReason: string | null): void;
  setRunState(sessionId: string, state: RunState): void;
  clearComposerError(): void;
  /** Sends the text with the chat's uploaded attachments (attachments-slice.ts). */
  sendMessage(text: string): Promise<ActionResult>;
  /** This window's Send to the chat while main has not answered it yet (settles either way), else undefined. */
  messageOnItsWay(sessionId: string): Promise<void> | undefined;
  stop(): Promise<ActionResult>;
  exportChat(sessionId: string): Promise<ActionResult>;
}

/** Each chat's sub-agents (docs/contract.md §10), shown in the "Task plan" region. */
export interface SubAgentSlice {
  subagents: Record<string, SubAgent[]>;
  /** A snapshot's sub-agents (getSession). */
  setSubAgents(sessionId: string, agents: SubAgent[]): void;
  /** subagent_updated: a sub-agent started, changed its plan or ended. */
  applySubAgent(sessionId: string, agent: SubAgent): void;
  /** subagent_line: a line of its transcript card as it happens (one of the same item replaces it). */
  applySubAgentLine(sessionId: string, agentId: string, line: SubAgentLine): void;
  /** "Stop sub-agent": that one and its own sub-agents. */
  stopSubAgent(sessionId: string, agentId: string): Promise<ActionResult>;
}

export interface PlanSlice {
  plans: Record<string, Plan | null>;
  /** Applies a snapshot's plan; anything not newer than the held one is dropped. */
  applyPlan(sessionId: string, plan: Plan | null): void;
  /**
   * Applies plan_updated: the plan, its transcript lines and the sidebar's progress, in one store
   * update; an update not newer than the held plan is dropped whole.
   */
  applyPlanUpdate(update: PlanUpdate): void;
  /** "Export plan": asks main for the Markdown and offers it as a file. */
  exportPlan(sessionId: string): Promise<ActionResult>;
}

export interface SettingsSlice {
  settingsView: SettingsView | null;
  models: ModelInfo[];
  settingsOpen: boolean;
  setSettingsView(view: SettingsView): void;
  openSettings(): void;
  closeSettings(): void;
  loadModels(): Promise<void>;
  saveSettings(patch: SettingsPatch): Promise<ActionResult>;
  saveApiKey(apiKey: string | null): Promise<ActionResult>;
}

export interface AppSlice {
  appInfo: AppInfo | null;
  connection: ConnectionStatus;
  load: LoadState;
  lastError: string | null;
  setAppInfo(info: AppInfo): void;
  setConnection(status: ConnectionStatus): void;
  setLoad(load: LoadState): void;
  setLastError(message: string | null): void;
}

export type WaypointState = SessionsSlice & ChatSlice & PlanSlice & SettingsSlice & AppSlice & ApprovalSlice & McpSlice & EscalationSlice & SessionsManageSlice & UiSlice & LayoutSlice & DraftsSlice & McpNoticeSlice &
  QuestionSlice & RerunSlice & ApprovalRulesSlice & PlanEditSlice & ContextSlice & AttachmentsSlice & FindSlice & TranscriptPagesSlice & ChatWriterSlice & ProjectSlice & WaitingPromptsSlice & SubAgentSlice & ChangesSlice;
export type WaypointStore = StoreApi<WaypointState>;

/** Each slice gets the store's set/get and the api its actions call. */
export type SliceCreator<T> = (
  set: StoreApi<WaypointState>['setState'],
  get: StoreApi<WaypointState>['getState'],
  api: WaypointApi,
) => T;
