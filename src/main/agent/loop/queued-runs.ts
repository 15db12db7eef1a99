import type { SessionSummary } from '../../../shared/transcript';
import { noticeItem } from '../../common/transcript-items';
import type { ChatRegistry } from '../../chats/chat-registry';
import type { ChatSession } from '../../chats/chat-session';
import type { SettingsSource } from '../ports';
import { RunQueue } from './run-queue';

export interface QueuedRunsOptions {
  chats: ChatRegistry;
  settings: SettingsSource;
  /** Runs going now that hold a slot (a run waiting for a person does not). */
  going(): number;
  isRunning(sessionId: string): boolean;
  /** Checks the chat may run now (key, not damaged) and starts its run; throws the reason it may not. */
  start(session: ChatSession): void;
}

/**
 * Settings "Runs at once": a chat whose message comes while that many runs go waits as
 * "Queued" and starts, in the order sent, when one ends. The queue is kept in each chat's summary
 * (`queued`, a ticket), so the log and the chat index carry it over a restart (`restore`).
 */
export class QueuedRuns {
  private readonly queue = new RunQueue();
  /** Set by `restore` in the shells that share a data folder; a process alone on it has nothing to claim. */
  private claim: (sessionId: string) => void = () => undefined;

  constructor(private readonly options: QueuedRunsOptions) {}

  isQueued(sessionId: string): boolean {
    return this.queue.has(sessionId);
  }

  /** The chat's new message: its run starts now when a slot is free, else the chat queues (a queued chat's next message joins the first). */
  schedule(session: ChatSession): void {
    const id = session.summary.id;
    if (this.queue.has(id)) return;
    if (this.options.going() < this.limit()) return this.options.start(session);
    const ticket = this.queue.ticket();
    this.queue.add({ id, ticket });
    this.options.chats.publish(session, { type: 'session_updated', session: { ...session.summary, queued: ticket } });
  }

  /** Stop on a queued chat: off the queue; its message stays in the chat, not sent. False when it was not queued. */
  unqueue(session: ChatSession): boolean {
    const sessionId = session.summary.id;
    if (!this.queue.remove(sessionId)) return false;
    this.publishUnqueued(session);
    // Said in the chat, so the message sitting there unanswered is not taken for a run that died.
    const words = 'Taken off the queue: your message was not sent. Send another message to go on; it goes with this one.';
    this.options.chats.publish(session, { type: 'transcript_item', sessionId, item: noticeItem('info', words, 'unqueued') });
    return true;
  }

  /** A run started in the chat by any way: it is not waiting any more, here or in its summary (the ticket a restart would queue it by). */
  started(session: ChatSession): void {
    this.queue.remove(session.summary.id);
    if (session.summary.queued !== undefined) this.publishUnqueued(session);
  }

  /** A deleted chat: off the queue, nothing to tell (its events are dropped). */
  forget(sessionId: string): void {
    this.queue.remove(sessionId);
  }

  /**
   * After a start: the chats still queued when the app quit, in their order, then whatever may
   * start now. `claim` makes this process the chat's writer before its run starts, and throws
   * while another live process writes it (a desktop app and a web shell on one data folder): that
   * chat is the other process's, which queues and starts it, so it is left alone here.
   */
  restore(claim?: (sessionId: string) => void): void {
    if (claim) this.claim = claim;
    for (const summary of this.options.chats.list()) if (summary.queued) this.queue.add({ id: summary.id, ticket: summary.queued });
    this.drain();
  }

  /** A slot may be free (a run ended, one waits for a person, the limit rose): the next chats start, in order. */
  drain(): void {
    // One at a time: a chat another process writes takes no slot, so the next one may start.
    for (let [id] = this.take(); id !== undefined; [id] = this.take()) {
      const session = this.options.chats.get(id);
      if (!session || !this.claimed(id)) continue;
      this.publishUnqueued(session);
      // Already running (a rerun started it meanwhile): its message goes in that run.
      if (this.options.isRunning(id)) continue;
      try {
        this.options.start(session);
      } catch (error) {
        // No key, a damaged log: the chat says why in place of the run, and the message stays to send again.
        const why = error instanceof Error ? error.message : String(error);
        this.options.chats.publish(session, { type: 'transcript_item', sessionId: id, item: noticeItem('error', `This chat was queued but could not start: ${why}`, 'queued_not_started') });
      }
    }
  }

  private take(): string[] {
    return this.queue.take(this.options.going(), Math.min(this.limit(), this.options.going() + 1));
  }

  /** False when another live process writes the chat: it leaves this queue, its summary untouched (that process's queue holds it). */
  private claimed(sessionId: string): boolean {
    try {
      this.claim(sessionId);
      return true;
    } catch {
      return false;
    }
  }

  private limit(): number {
    return this.options.settings.get().runsAtOnce;
  }

  private publishUnqueued(session: ChatSession): void {
    const { queued: _was, ...rest }: SessionSummary = session.summary;
    this.options.chats.publish(session, { type: 'session_updated', session: rest });
  }
}
