import {
  type CallInput,
  type CallName,
  type CallOutput,
  calls,
  describeZodError,
  type WaypointApi,
  WaypointCallError,
  type WaypointEvent,
} from '../../../shared/contract';
import { budgetPromptOf } from '../../../shared/budget';
import type { McpServerState } from '../../../shared/mcp';
import type { InstructionsView, SkillsView } from '../../../shared/skills';
import { isAwaitingApproval, type Plan } from '../../../shared/plan';
import { Settings, type SettingsView } from '../../../shared/settings';
import type { RunState, SessionSummary, TranscriptItem } from '../../../shared/transcript';
import { foldCase, matchOffsets } from '../../../shared/text-find';
import { session as makeSession, settingsView } from './fixtures';

interface Chat {
  summary: SessionSummary;
  transcript: TranscriptItem[];
  runState: RunState;
  plan: Plan | null;
}

/**
 * A small in-memory main for renderer tests: it validates every input against the contract
 * like the real call router, keeps chats, and lets a test emit events. Tests can override a
 * call's behaviour (e.g. make sendMessage refuse) through `override`.
 */
export class MemoryBackend implements WaypointApi {
  readonly chats = new Map<string, Chat>();
  readonly log: Array<{ name: CallName; input: unknown }> = [];
  view: SettingsView;
  mcpServers: McpServerState[] = [];
  /** What Settings "Skills" and the header's "Instructions" are told (none unless a test sets them). */
  skills: SkillsView = { skills: [], broken: [] };
  instructions: InstructionsView = { sources: [], notes: [] };
  private listeners = new Set<(event: WaypointEvent) => void>();
  private overrides = new Map<CallName, (input: unknown) => unknown>();
  private nextId = 1;

  /** Items per page of a transcript (paged sessions); unset: a chat is sent whole. */
  private readonly pageSize: number;

  constructor(options: { hasApiKey?: boolean; pageSize?: number } = {}) {
    this.view = settingsView(options.hasApiKey ?? true);
    this.pageSize = options.pageSize ?? Number.POSITIVE_INFINITY;
  }

  addChat(id: string, title: string, extra: Partial<Omit<Chat, 'summary'>> & { updatedAt?: string } = {}): void {
    this.chats.set(id, {
      summary: makeSession(id, title, extra.updatedAt),
      transcript: extra.transcript ?? [],
      runState: extra.runState ?? { status: 'idle' },
      plan: extra.plan ?? null,
    });
  }

  override<N extends CallName>(name: N, handler: (input: CallInput<N>) => CallOutput<N> | Promise<CallOutput<N>>): void {
    this.overrides.set(name, handler as (input: unknown) => unknown);
  }

  emit(event: WaypointEvent): void {
    for (const listener of [...this.listeners]) listener(event);
  }

  onEvent(listener: (event: WaypointEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async call<N extends CallName>(name: N, input: CallInput<N>): Promise<CallOutput<N>> {
    this.log.push({ name, input });
    const parsed = calls[name].input.safeParse(input);
    if (!parsed.success) throw new WaypointCallError('invalid_input', describeZodError(parsed.error));
    const override = this.overrides.get(name);
    const value = override ? await override(parsed.data) : this.handle(name, parsed.data);
    return value as CallOutput<N>;
  }

  private chat(sessionId: string): Chat {
    const chat = this.chats.get(sessionId);
    if (!chat) throw new WaypointCallError('not_found', `No chat ${sessionId}.`);
    return chat;
  }

  private handle(name: CallName, input: Record<string, unknown>): unknown {
    switch (name) {
      case 'getAppInfo':
        return { shell: 'web', version: '0.0.0-test', workspace: null };
      case 'listSessions':
        return { sessions: [...this.chats.values()].map((c) => c.summary) };
      case 'getSession': {
        const chat = this.chat(String(input.sessionId));
        const olderItems = Math.max(0, chat.transcript.length - this.pageSize);
        return { session: chat.summary, transcript: chat.transcript.slice(olderItems), olderItems, runState: chat.runState, plan: chat.plan };
      }
      case 'getPendingPrompts': {
        // As main: what the chat asks, here only its proposed plan (a test overrides it for the rest).
        const { plan } = this.chat(String(input.sessionId));
        return { pendingApproval: null, pendingEscalation: null, pendingQuestion: null, proposedPlan: isAwaitingApproval(plan) ? plan : null, ...(plan && budgetPromptOf(String(input.sessionId), plan) ? { budgetStop: plan } : {}) };
      }
      case 'getTranscriptPage': {
        // As main pages (sessions/transcript-pages.ts), by count only.
        const { transcript } = this.chat(String(input.sessionId));
        const position = (id: unknown) => {
          const at = transcript.findIndex((item) => item.id === id);
          if (at < 0) throw new WaypointCallError('not_found', 'That part of the chat is gone.');
          return at;
        };
        const end = position(input.beforeItemId);
        const limit = typeof input.limit === 'number' ? input.limit : this.pageSize;
        const start = Math.min(Math.max(0, end - limit), input.throughItemId === undefined ? end : position(input.throughItemId));
        return { items: transcript.slice(start, end), olderItems: start };
      }
      case 'newSession': {
        const id = `s-new-${this.nextId++}`;
        this.addChat(id, 'New chat', { updatedAt: new Date().toISOString() });
        return this.chat(id).summary;
      }
      case 'sendMessage': {
        const chat = this.chat(String(input.sessionId));
        const item: TranscriptItem = { id: `u-${this.nextId++}`, kind: 'user', text: String(input.text), createdAt: new Date().toISOString() };
        chat.transcript.push(item);
        return { itemId: item.id };
      }
      case 'stop':
        return { stopped: true };
      case 'setChatInView':
        return {};
      case 'getSettings':
        return this.view;
      case 'setSettings':
        this.view = { ...this.view, settings: Settings.parse({ ...this.view.settings, ...(input.patch as object) }) };
        return this.view;
      case 'setApiKey': {
        const apiKey = input.apiKey;
        this.view = { ...this.view, apiKey: apiKey ? { hasApiKey: true, source: 'settings' } : { hasApiKey: false, source: 'none' } };
        return this.view.apiKey;
      }
      case 'listModels':
        return { models: [{ id: 'claude-sonnet-4-5', displayName: 'Claude Sonnet 4.5' }, { id: 'claude-haiku-4-5', displayName: 'Claude Haiku 4.5' }], source: 'fallback' };
      case 'getPlan':
        return { plan: this.chat(String(input.sessionId)).plan };
      case 'getMcpStates':
        return { servers: this.mcpServers };
      case 'signInMcpServer':
        return { started: this.mcpServers.some((s) => s.name === input.name && s.transport === 'http') };
      case 'listSkills':
        return this.skills;
      case 'getInstructions':
        return this.instructions;
      case 'getWorktreeUsage':
        // No chat here works in a worktree.
        return { count: 0, bytes: 0 };
      case 'getChatWriter':
        // Nobody else writes a chat here unless a test says so (override).
        return { writer: null };
      case 'findInChat': {
        // Main's search in small (messages only), counted the same way (shared/text-find.ts).
        const needle = foldCase(String(input.query));
        const matches = this.chat(String(input.sessionId)).transcript.flatMap((item) =>
          item.kind === 'user' || item.kind === 'assistant'
            ? matchOffsets(foldCase(item.text), needle).map((index, occurrence) => ({ itemId: item.id, snippet: item.text, index, occurrence }))
            : [],
        );
        return { matches, total: matches.length, truncated: false };
      }
    }
  }
}
