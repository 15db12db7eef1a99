import { randomUUID } from 'node:crypto';
import type { WaypointEvent } from '../../shared/contract';
import type { SessionSummary } from '../../shared/transcript';
import { Emitter, type Disposable } from '../common/emitter';
import { UserFacingError } from '../common/errors';
import { nowIso } from '../common/transcript-items';
import type { ChatItems } from './chat-items';
import { ChatSession, newestFirst, type HistoryEvent } from './chat-session';
import type { KeptVersion } from './chat-versions';

/**
 * The chats of record and their one event stream. Every change to a chat goes through `publish`:
 * the chat's state folds the event first, then subscribers get it (the session log, the event
 * pump). A removed chat's late events (a run winding down) are dropped, never bring it back.
 */
export class ChatRegistry implements Disposable {
  /** In list order; a chat listed from the chat index holds only its summary until first used. */
  private readonly chats = new Map<string, ChatSession | UnreadChat>();
  private readonly emitter = new Emitter<WaypointEvent>();
  readonly onEvent = this.emitter.event;
  private readonly historyChanges = new Emitter<{ sessionId: string; event: HistoryEvent }>();
  private readonly versionsKept = new Emitter<{ sessionId: string; kept: KeptVersion }>();
  private disposed = false;

  /** `newItems`: where a new chat keeps its transcript (the store's pages, store/paging/paged-items.ts). */
  constructor(readonly newItems: () => ChatItems) {}

  /** Every change to a chat's API history, as it is made (not a contract event: the log records it, no window shows it). */
  onHistoryChange(listener: (sessionId: string, event: HistoryEvent) => void): Disposable {
    return this.historyChanges.event(({ sessionId, event }) => listener(sessionId, event));
  }

  /** Every version a chat keeps beside the one it shows, as it is kept (the log records it; no window shows it). */
  onVersionKept(listener: (sessionId: string, kept: KeptVersion) => void): Disposable {
    return this.versionsKept.event(({ sessionId, kept }) => listener(sessionId, kept));
  }

  list(): SessionSummary[] {
    return newestFirst([...this.chats.values()].map((s) => s.summary));
  }

  /** The chat, read from its log first when it was only listed (store/chat-index.ts). */
  get(sessionId: string): ChatSession | undefined {
    const chat = this.chats.get(sessionId);
    if (!(chat instanceof UnreadChat)) return chat;
    // Read once: whatever `read` adopts takes the entry's place; a log that is gone takes the chat with it.
    chat.read();
    const read = this.chats.get(sessionId);
    if (read instanceof UnreadChat) {
      this.remove(sessionId);
      return undefined;
    }
    return read;
  }

  /** The chat if it is in memory, without reading a listed chat's log. */
  peek(sessionId: string): ChatSession | undefined {
    const chat = this.chats.get(sessionId);
    return chat instanceof UnreadChat ? undefined : chat;
  }

  /** Lists a chat whose log is read by `read` (which adopts it) only when the chat is first used. */
  listUnread(summary: SessionSummary, read: () => void): void {
    this.chats.set(summary.id, new UnreadChat(summary, read));
  }

  require(sessionId: string): ChatSession {
    const session = this.get(sessionId);
    if (!session) throw new UserFacingError('not_found', `There is no chat with id "${sessionId.slice(0, 100)}". It may have been deleted; pick another chat or start a new one.`);
    return session;
  }

  create(workspace: string | null, extra: Pick<SessionSummary, 'origin'> & { title?: string } = {}): SessionSummary {
    // A new chat is the newest, even when another changed in the same millisecond: its times are
    // made later than every listed chat's, so it heads the list now and after a restart alike
    // (the list orders ties by creation and id, never by the order chats were read in).
    let now = nowIso();
    for (const chat of this.chats.values()) {
      const latest = chat.summary.updatedAt > chat.summary.createdAt ? chat.summary.updatedAt : chat.summary.createdAt;
      if (latest >= now) now = new Date(Date.parse(latest) + 1).toISOString();
    }
    const summary: SessionSummary = { id: randomUUID(), title: extra.title ?? 'New chat', createdAt: now, updatedAt: now, ...(workspace ? { workspace } : {}), ...(extra.origin ? { origin: extra.origin } : {}) };
    this.track(new ChatSession(summary, this.newItems()));
    this.emitter.fire({ type: 'session_updated', session: summary });
    return summary;
  }

  /** Puts back a chat replayed from its log. */
  adopt(session: ChatSession): void {
    this.track(session);
  }

  private track(session: ChatSession): void {
    const id = session.summary.id;
    this.chats.set(id, session);
    session.onHistoryChange((event) => {
      // A removed or replaced chat's late changes are dropped, as its events are.
      if (!this.disposed && this.chats.get(id) === session) this.historyChanges.fire({ sessionId: id, event });
    });
    session.onVersionKept((kept) => {
      if (!this.disposed && this.chats.get(id) === session) this.versionsKept.fire({ sessionId: id, kept });
    });
  }

  /** Forgets the chat and tells subscribers; false when there was none. */
  remove(sessionId: string): boolean {
    if (!this.chats.delete(sessionId)) return false;
    this.emitter.fire({ type: 'session_deleted', sessionId });
    return true;
  }

  publish(session: ChatSession, event: WaypointEvent): void {
    if (this.disposed || this.chats.get(session.summary.id) !== session) return;
    const before = positionBefore(session, event);
    session.apply(event);
    this.emitter.fire(positioned(session, event, before));
  }

  /** Bumps updatedAt (and sets the title) and tells subscribers. */
  touch(session: ChatSession, title?: string): void {
    this.publish(session, { type: 'session_updated', session: { ...session.summary, updatedAt: nowIso(), ...(title ? { title } : {}) } });
  }

  dispose(): void {
    this.disposed = true;
    this.emitter.dispose();
  }
}

/** A chat known from the chat index only: its summary, and how to read it from its log. */
class UnreadChat {
  constructor(
    readonly summary: SessionSummary,
    readonly read: () => void,
  ) {}
}

/** What only the chat before the event knows: where a cut begins, how long the text a delta extends is. */
function positionBefore(session: ChatSession, event: WaypointEvent): number {
  if (event.type === 'chat_rewound') return session.indexOf(event.fromItemId);
  if (event.type === 'message_delta') {
    const item = session.item(event.itemId);
    return item?.kind === 'assistant' || item?.kind === 'thinking' ? item.text.length : -1;
  }
  return -1;
}

/**
 * The event with where it lands stamped on (paged sessions): a new or changed item's position in
 * the transcript, a cut's position, a delta's offset in its message. A renderer holding only the
 * last pages then tells a new item (past its end) from a change to one it has not loaded, a cut
 * above what it holds from none, and a delta a snapshot already carries from a new one.
 */
function positioned(session: ChatSession, event: WaypointEvent, before: number): WaypointEvent {
  if (!('sessionId' in event) || event.sessionId !== session.summary.id) return event;
  if (event.type === 'transcript_item') {
    const index = session.indexOf(event.item.id);
    return index < 0 ? event : { ...event, index };
  }
  if (event.type === 'chat_rewound' && before >= 0) return { ...event, index: before };
  if (event.type === 'message_delta' && before >= 0) return { ...event, offset: before };
  return event;
}
