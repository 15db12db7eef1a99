import { budgetDefaultsOf } from '../../shared/budget';
import { PagedItems } from '../store/paging/paged-items';
import type { Settings, SettingsView } from '../../shared/settings';
import type { ApprovalRuleFields } from '../../shared/approval-rules';
import type { NoticeItem } from '../../shared/transcript';
import type { UserEditRequest } from '../plan/plan-service.types';
import { ChatService } from '../agent/loop/chat-service';
import { withListedRuns } from './listed-runs';
import { isAwaitingApproval } from '../../shared/plan';
import { ModelFacts } from '../agent/model/model-facts';
import { Chats } from '../chats/chats';
import { ToolRegistry } from '../tools/tool-registry';
import { DisposableStore } from '../common/emitter';
import { EventPump } from '../pump/event-pump';
import { PlanService } from '../plan/plan-service';
import { RecoveryService } from '../recovery/recovery-service';
import type { LogFileSystem } from '../store/log-file-system';
import { ChatLogs, SESSIONS_DIR } from '../store/chat-logs';
import { SettingsStore } from '../settings/settings-store';
import { ApiKeyStore, MemorySecretStore, type SecretStore } from '../settings/api-key-store';
import { throughPump, type AppServices } from './app-services';
import { APP_VERSION } from './app-version';
import { apiRetryFromEnv } from './api-retry-env';
import { createCallRouter, type CallHandlers } from './call-router';
import { claimingHandlers, type ChatClaims } from './chat-claims';
import { carryOut } from './forwarded-requests';
import { chatWriterOf, lockLost, takeOverChat, type TakeOverStore } from './chat-takeover';
import type { LockOwner } from '../store/chat-lock';
import { loadMcpConfigFile } from '../tools/mcp/mcp-config-file';
import { McpService } from '../tools/mcp/mcp-service';
import { McpTokenVault } from '../tools/mcp/oauth/token-vault';
import { watchSaves } from './save-alerts';
import { chooseWorkspace, type PickFolder } from './workspace-choice';
import { WorkspaceToolRegistries } from '../tools/workspace-registries';
import { OffLimits } from '../tools/workspace';
import { waypointPlaces } from './data-folders';
import { exportPlanMarkdown } from '../plan/plan-export';
import { undoPlan } from '../agent/plan-hooks/plan-undo';
import { AttachmentService } from '../attachments/attachment-service';
import { exportChatMarkdown } from '../attachments/chat-export';
import { findInPagedChat } from '../store/search/chat-find';
import { ProjectContext } from '../agent/prompts/project-context';
import { ChatWorktrees } from './chat-worktrees';
import { worktreesDirOf } from '../recovery/worktree';
import { WorkspaceGates } from '../common/workspace-gates';
import { join } from 'node:path';

export type { AppServices } from './app-services';

/** The app's services, and which chats this process may write (one writer per chat log across processes). */
export interface Services extends AppServices {
  sessions: ChatClaims & TakeOverStore & { writerElsewhere(sessionId: string): LockOwner | null };
  /** The chats of record (a headless run makes its own with newSession, never reusing an empty one). */
  chats: Chats;
  /**
   * An answer of any kind on the one answer path, unparsed (`waypoint run --resume --answer`
   * declining "Retry now" has no call of its own; the chat is claimed by then).
   */
  answerPause: ChatService['answerPause'];
  /** Each event of a sub-agent's own run, named (headless `--json` prints them). */
  onAgentEvent: ChatService['onAgentEvent'];
  /** Every worktree checkout still running has ended (`waypoint run` reports the worktree after it). */
  worktreesIdle(): Promise<void>;
}

export interface ServicesOptions {
  dataDir: string;
  workspace: string | null;
  shell: 'electron' | 'web' | 'cli';
  secretStore: SecretStore;
  /** Remote MCP servers' OAuth tokens, kept like the API key (default: memory, as the web shell and CLI do). */
  mcpTokenStore?: SecretStore;
  /** The desktop app opens a sign-in page in the system browser; the web shell shows it as a link. */
  openSignInPage?: (url: string) => void;
  env?: NodeJS.ProcessEnv;
  mcpConfigPath?: string;
  /** Electron's folder dialog for chooseWorkspace; the web shell has none (--workspace). */
  pickFolder?: PickFolder;
  /** How often streamed text goes out to the shells (event-pump.ts; default 33 ms). */
  deltaFlushMs?: number;
  /** Settings for this process only, never saved (a headless run's --planning-style). */
  settingsOverrides?: Partial<Settings>;
  /** The chat logs' file system (tests put write faults in it). */
  logFileSystem?: LogFileSystem;
  /** First retry of a failed log write (default 500 ms). */
  logRetryMs?: number;
  /** How long a chat's worktree found half-written at start waits for its git to finish (default 30 s). */
  unfinishedCheckoutWaitMs?: number;
  /** How settings.json is written (tests put a full or read-only disk in its place). */
  settingsWriteFile?: (path: string, content: string) => Promise<void>;
}

/** How each shell names itself in lock files and messages to the other processes on the folder. */
const HOLDERS: Record<ServicesOptions['shell'], string> = {
  electron: 'the Waypoint app',
  web: 'the Waypoint web shell',
  cli: 'waypoint run',
};

/**
 * The one place the app is put together. Both shells call this and only forward calls and
 * events, so Electron and the browser tab run exactly the same services.
 */
export async function createServices(options: ServicesOptions): Promise<Services> {
  const env = options.env ?? process.env;
  // Validate an --mcp-config file up front: a typo should stop startup with a clear message.
  const fileServers = options.mcpConfigPath ? await loadMcpConfigFile(options.mcpConfigPath) : {};
  const settings = await SettingsStore.open(options.dataDir, options.settingsWriteFile ? { writeFile: options.settingsWriteFile } : {});
  const apiKey = new ApiKeyStore(options.secretStore, env);
  const plans = new PlanService({
    dataDir: options.dataDir,
    planFirst: () => settings.get().planFirst,
    // Settings' budget per plan (a headless run's --budget-usd / --max-minutes override them).
    budgetDefaults: () => budgetDefaultsOf({ ...settings.get(), ...options.settingsOverrides }),
    // Read when a WBS tool runs, long after `chats` below exists.
    workspaceOf: (id): string | null => chats.sessionState(id)?.summary.workspace ?? null,
  });
  // Shared tools (MCP); each chat adds the workspace tools of its own folder on top.
  const tools = new ToolRegistry();
  // Waypoint's own folders stay out of every workspace tool's reach, even inside the workspace.
  const places = waypointPlaces(options.dataDir, env, options.mcpConfigPath);
  const workspaces = new WorkspaceToolRegistries(tools, new OffLimits(places));
  // Sign-in tokens stay in main: the window only ever sees a server's state and its sign-in page.
  const mcpTokens = new McpTokenVault(options.mcpTokenStore ?? new MemorySecretStore());
  const mcp = new McpService(tools, fileServers, { signIns: { vault: mcpTokens, openSignInPage: options.openSignInPage } });
  const recovery = new RecoveryService({ plans, dataDir: options.dataDir });
  const attachments = new AttachmentService(options.dataDir);
  // Project instructions and skills: every shell and waypoint run read them the same way, per request.
  // Worktrees still being checked out: requests read from their commit, tools and Changes wait (chat-worktrees.ts).
  const gates = new WorkspaceGates();
  const project = new ProjectContext(options.dataDir, gates);
  // A headless run's flags apply to its own process only: Settings on disk stay as they are.
  const overrides = options.settingsOverrides ?? {};
  const runSettings = {
    get: (): Settings => ({ ...settings.get(), ...overrides }),
    onDidChange: settings.onDidChange,
    addApprovalRule: (fields: ApprovalRuleFields) => settings.addApprovalRule(fields),
  };
  // The chats of record, and the runs on top of them; a chat is running when the loop says so.
  const chats = new Chats({ plans, workspace: options.workspace, isRunning: (sessionId) => chat.isRunning(sessionId), newItems: () => new PagedItems() });
  // Display names, context windows and thinking from the Models API: Settings' list and the runs share one cache.
  const models = new ModelFacts({ baseURL: env.ANTHROPIC_BASE_URL });
  const chat: ChatService = new ChatService({
    chats,
    models,
    attachments,
    settings: runSettings,
    apiKey,
    plans,
    recovery,
    apiRetry: apiRetryFromEnv(env),
    baseURL: env.ANTHROPIC_BASE_URL,
    toolsForWorkspace: (root) => workspaces.forRoot(root),
    // waypoint run answers approvals itself; nobody can be asked for a protected change.
    headless: options.shell === 'cli',
    project,
    workspaceReady: (workspace) => gates.wait(workspace),
  });
  // What other processes' requests, a lost lock and a failing disk act on: the chats of record, and their runs.
  const toChat = {
    listSessions: () => chats.listSessions(),
    requireSession: (sessionId: string) => chats.requireSession(sessionId),
    addNotice: (sessionId: string, item: NoticeItem) => chats.addNotice(sessionId, item),
    editPlan: (sessionId: string, request: UserEditRequest) => chats.editPlan(sessionId, request),
    stop: (sessionId: string) => chat.stop(sessionId),
    retryRun: (sessionId: string) => chat.retryRun(sessionId),
    answerPause: (...args: Parameters<typeof chat.answerPause>) => chat.answerPause(...args),
    reviewPlan: (...args: Parameters<typeof chat.reviewPlan>) => chat.reviewPlan(...args),
  };
  // Every chat comes back from its log before the first call is answered. The windowed shells
  // follow the chats other processes write (a headless run, an MCP client) and give theirs back
  // when idle; a headless run holds its chat until it exits.
  const windowed = options.shell !== 'cli';
  const sessions = await ChatLogs.open({
    dataDir: options.dataDir,
    chat: chats,
    runs: chat,
    plans,
    holder: HOLDERS[options.shell],
    follow: windowed,
    ...(windowed ? { releaseIdleMs: 1_500 } : {}),
    onRequest: (sessionId, { request, from }) => carryOut(toChat, sessionId, request, from.holder),
    onLockLost: (sessionId, by) => lockLost(toChat, sessionId, by),
    ...(options.logFileSystem ? { fs: options.logFileSystem } : {}),
    ...(options.logRetryMs !== undefined ? { retryMs: options.logRetryMs } : {}),
  });

  // Each chat's git worktree (Settings "Work in a git worktree") and every chat's Changes.
  const worktrees = new ChatWorktrees({
    chats,
    folderChanges: recovery.folderChanges,
    worktreesDir: worktreesDirOf(options.dataDir),
    sessionsDir: join(options.dataDir, SESSIONS_DIR),
    enabled: () => runSettings.get().worktrees,
    isRunning: (sessionId) => chat.isRunning(sessionId),
    gates,
    ...(options.unfinishedCheckoutWaitMs !== undefined ? { unfinishedWaitMs: options.unfinishedCheckoutWaitMs } : {}),
  });
  // Before any run of a chat can use it: a worktree whose checkout was cut off is never taken for the chat's work.
  worktrees.holdUnfinished();
  // Worktrees whose chat is gone (a delete cut short, a chat folder removed by hand) go at start, in the background;
  // so do such chats' checkpoints and command shadows, and the shared snapshot stores no chat uses any more.
  if (windowed) {
    void worktrees.sweep().catch(() => undefined);
    void recovery.sweepOrphans(worktrees.isChat).catch((error: Error) => console.warn(`[waypoint] could not sweep the checkpoints of deleted chats: ${error.message}`));
  }

  // Chats queued for a run slot when the app quit queue again in their order ("Runs at once").
  // A chat another live process writes is that process's to start (drain claims it first).
  if (windowed) chat.restoreQueue((sessionId) => sessions.claim(sessionId));

  // Every event of every service, in the order fired, through the one pump both shells forward.
  const pump = new EventPump({ deltaFlushMs: options.deltaFlushMs });
  const subscriptions = new DisposableStore();
  const view = (): SettingsView => ({ settings: settings.get(), apiKey: apiKey.state() });
  const announceSettings = () => pump.push({ type: 'settings_updated', view: view() });

  subscriptions.add(chats.onEvent((event) => pump.push(event)));
  subscriptions.add(settings.onDidChange(announceSettings));
  subscriptions.add(mcp.onDidChange((servers) => pump.push({ type: 'mcp_state', servers })));
  subscriptions.add(settings.onDidChange((next) => mcp.apply(next.mcpServers)));
  mcp.apply(settings.get().mcpServers); // in the background: start-up never waits for a server
  subscriptions.add(apiKey.onDidChange(announceSettings));
  // A chat that cannot be saved pauses and says why (save-alerts.ts).
  subscriptions.add(watchSaves(sessions.onSaveState, toChat, (event) => pump.push(event)));

  // Only the desktop window says it (one window); the desktop notifier reads it.
  let chatInView: string | null = null;
  // Chats a sendMessage is working on (awaiting before the message is in): not empty for New chat.
  // A count per chat, not a mark: of two sends to one chat the first to answer must not clear it
  // while the other is still on its way (a chat leaves the map at zero).
  const messagesOnTheirWay = new Map<string, number>();
  const handlers: CallHandlers = {
    getAppInfo: () => ({
      // A headless run serves no window; it answers as the plain-Node shell it is closest to.
      shell: options.shell === 'cli' ? 'web' : options.shell,
      version: APP_VERSION,
      workspace: options.workspace,
      ...(settings.loadStatus.kind === 'reset' ? { settingsReset: { reason: settings.loadStatus.reason, backupPath: settings.loadStatus.backupPath } } : {}),
      ...(sessions.loadProblem ? { storageProblem: sessions.loadProblem } : {}),
    }),
    listSessions: () => ({
      sessions: withListedRuns(chats.listSessions(), {
        isRunning: (id) => chat.isRunning(id),
        inMemory: (id) => chats.sessionInMemory(id),
        // A proposal or a stop at the budget: the plan is what asks.
        proposed: (id) => isAwaitingApproval(plans.getPlan(id)) || !!plans.getPlan(id)?.budget?.reached,
      }),
    }),
    getSession: ({ sessionId }) => chats.getSession(sessionId),
    getPendingPrompts: ({ sessionId }) => chats.pendingPrompts(sessionId),
    getTranscriptPage: ({ sessionId, ...request }) => chats.getTranscriptPage(sessionId, request),
    newSession: () => {
      // A chat whose first message is still on its way (its worktree, its files) is not empty:
      // New chat pressed right after Send must be another chat, not the one the message goes to.
      const made = chats.newSession({ reuseEmpty: true, reusable: (id) => !sessions.writerElsewhere(id) && !messagesOnTheirWay.has(id) });
      // Its worktree (Settings "Work in a git worktree") starts now, so the first message waits for little of it.
      worktrees.makeAhead(made.id);
      return made;
    },
    sendMessage: async ({ sessionId, text, attachments: refs }) => {
      messagesOnTheirWay.set(sessionId, (messagesOnTheirWay.get(sessionId) ?? 0) + 1);
      try {
        // A new chat's worktree is made before its first message runs (chat-worktrees.ts).
        await worktrees.beforeMessage(sessionId);
        return chat.sendMessage(sessionId, text, refs?.length ? await attachments.forMessage(refs) : []);
      } finally {
        const left = (messagesOnTheirWay.get(sessionId) ?? 1) - 1;
        if (left > 0) messagesOnTheirWay.set(sessionId, left);
        else messagesOnTheirWay.delete(sessionId);
      }
    },
    startUpload: ({ name, size }, client) => attachments.startUpload(name, size, client),
    uploadChunk: ({ uploadId, offset, data }) => attachments.uploadChunk(uploadId, offset, data),
    finishUpload: ({ uploadId }) => attachments.finishUpload(uploadId),
    getAttachmentPreview: async ({ id }) => ({ dataUrl: await attachments.preview(id) }),
    exportChat: ({ sessionId }) => {
      const session = chats.requireSession(sessionId);
      return exportChatMarkdown(session.summary, session.transcript, attachments.store);
    },
    stop: ({ sessionId }) => chat.stop(sessionId),
    stopSubAgent: ({ sessionId, agentId }) => chat.stopSubAgent(sessionId, agentId),
    getChatWriter: ({ sessionId }) => {
      chats.requireSession(sessionId);
      return { writer: chatWriterOf(sessions, sessionId) };
    },
    takeOverChat: ({ sessionId, token }) => takeOverChat(sessions, toChat, sessionId, token),
    getSettings: view,
    setSettings: async ({ patch }) => {
      await settings.update(patch);
      return view();
    },
    setApiKey: ({ apiKey: key }) => apiKey.set(key),
    listModels: () => models.choices(apiKey.getKey(), runSettings.get().model),
    getPlan: ({ sessionId }) => ({ plan: plans.getPlan(sessionId) }),
    retryRun: ({ sessionId }) => chat.retryRun(sessionId),
    compactSession: ({ sessionId }) => chat.compactSession(sessionId),
    exportPlan: ({ sessionId }) => exportPlanMarkdown(plans.getPlan(sessionId)),
    answerApproval: ({ sessionId, requestId, decision }) => chat.answerApproval(sessionId, requestId, decision),
    answerEscalation: ({ sessionId, requestId, answer }) => chat.answerEscalation(sessionId, requestId, answer),
    answerQuestion: ({ sessionId, requestId, answer }) => chat.answerQuestion(sessionId, requestId, answer),
    editMessage: ({ sessionId, itemId, text, restoreFiles }) => chat.reruns.edit(sessionId, itemId, text, restoreFiles),
    retryReply: ({ sessionId, restoreFiles }) => chat.reruns.retry(sessionId, restoreFiles),
    showVersion: ({ sessionId, itemId, of, index }) => chat.reruns.show(sessionId, itemId, of, index),
    previewRerun: ({ sessionId, itemId }) => chat.reruns.preview(sessionId, itemId),
    addApprovalRule: async ({ rule }) => ({ rule: await settings.addApprovalRule(rule) }),
    removeApprovalRule: async ({ id }) => {
      await settings.removeApprovalRule(id);
      return { removed: true };
    },
    previewUndoPlan: async ({ sessionId }) => ({ files: await recovery.previewUndo(sessionId, chats.getSession(sessionId).session.workspace ?? null) }),
    undoPlan: ({ sessionId, overwriteChangedOutside }) => undoPlan({ chats, chat, recovery, plans }, sessionId, overwriteChangedOutside),
    renameSession: ({ sessionId, title }) => chats.renameSession(sessionId, title),
    pinSession: ({ sessionId, pinned }) => chats.pinSession(sessionId, pinned),
    setSessionModel: ({ sessionId, model }) => chats.setSessionModel(sessionId, model),
    deleteSession: async ({ sessionId, keepBranch }) => {
      // Deleting the chat stops its run (chat-service.ts); its file checkpoints then go too, and its worktree.
      const held = worktrees.worktreeBeforeDelete(sessionId);
      await worktrees.forgetAhead(sessionId);
      const deleted = await sessions.deleteSession(sessionId);
      await recovery.forgetChat(sessionId);
      if (held) await worktrees.forget(held, keepBranch ?? false);
      return { deleted };
    },
    getChanges: ({ sessionId }) => worktrees.changes(sessionId),
    getFileDiff: async ({ sessionId, path }) => ({ diff: await worktrees.fileDiff(sessionId, path) }),
    revertFile: ({ sessionId, path }) => worktrees.revertFile(sessionId, path),
    mergeWorktree: ({ sessionId }) => worktrees.merge(sessionId),
    discardWorktree: ({ sessionId }) => worktrees.discard(sessionId),
    getWorktreeUsage: () => worktrees.usage(),
    cleanUpWorktrees: async () => ({ removed: await worktrees.sweep(), ...(await worktrees.usage()) }),
    searchSessions: async ({ query }) => ({ results: await sessions.search(query) }),
    findInChat: ({ sessionId, query }) => findInPagedChat(chats.requireSession(sessionId), query),
    getMcpStates: () => ({ servers: mcp.states() }),
    restartMcpServer: ({ name }) => ({ restarted: mcp.restart(name) }),
    signInMcpServer: ({ name }) => ({ started: mcp.signIn(name) }),
    getInstructions: async ({ sessionId }) => {
      const { sources, notes } = await project.instructionsIn(chats.requireSession(sessionId).summary.workspace ?? null, runSettings.get());
      return { sources, notes };
    },
    listSkills: ({ sessionId }) => project.skillsIn(sessionId ? (chats.requireSession(sessionId).summary.workspace ?? null) : options.workspace, runSettings.get()),
    chooseWorkspace: ({ sessionId, folder }) => chooseWorkspace(chats, options.pickFolder, places, sessionId, folder),
    editPlan: ({ sessionId, ...request }) => chats.editPlan(sessionId, request),
    reviewPlan: ({ sessionId, ...request }) => chat.reviewPlan(sessionId, request),
    setPlanBudget: ({ sessionId, planId, usd }) => chat.setPlanBudget(sessionId, planId, usd),
    answerBudget: ({ sessionId, requestId, answer }) => chat.answerBudget(sessionId, requestId, answer),
    setChatInView: ({ sessionId }) => {
      chatInView = sessionId;
      return {};
    },
  };

  let disposed: Promise<void> | null = null;
  return {
    ...throughPump(createCallRouter(claimingHandlers(handlers, sessions)), pump),
    sessions,
    chats,
    answerPause: (...args) => chat.answerPause(...args),
    onAgentEvent: chat.onAgentEvent,
    worktreesIdle: () => worktrees.idle(),
    reportProblem: (message) => pump.push({ type: 'error', code: 'internal', message }),
    clientGone: (client) => attachments.clientGone(client),
    chatInView: () => chatInView,
    secrets: () => [apiKey.getKey(), env.ANTHROPIC_API_KEY ?? null, ...mcpTokens.secrets()],
    dispose() {
      disposed ??= (async () => {
        // A checkout still running ends first (its failure still reaches the chat): never a half-made worktree.
        await worktrees.idle();
        subscriptions.dispose();
        await sessions.dispose();
        chats.dispose();
        chat.dispose();
        recovery.dispose();
        await mcp.dispose();
        pump.flush();
        pump.dispose();
        settings.dispose();
        apiKey.dispose();
      })();
      return disposed;
    },
  };
}
