/** A chat waiting for a run slot and its ticket: the order its message was sent in. */
export interface QueuedChat {
  id: string;
  ticket: number;
}

/**
 * The chats waiting for a run slot ("Runs at once" in Settings), first sent first started.
 * Only the order and the limit: what a ticket means on disk and what starting a run takes are
 * queued-runs.ts's. A ticket is a number that only grows, so the order is the same after a
 * restart, when the queue is rebuilt from the tickets the chats kept.
 */
export class RunQueue {
  private waiting: QueuedChat[] = [];
  private last = 0;

  /** A ticket later than every one seen, near `now` so tickets stay later across restarts. */
  ticket(now = Date.now()): number {
    this.last = Math.max(now, this.last + 1);
    return this.last;
  }

  /** Queues a chat at its ticket's place; a chat already queued keeps its place. */
  add(chat: QueuedChat): void {
    if (this.has(chat.id)) return;
    this.last = Math.max(this.last, chat.ticket);
    // Equal tickets (kept by two processes, say) go by id, so every start orders them the same.
    const at = this.waiting.findIndex((w) => w.ticket > chat.ticket || (w.ticket === chat.ticket && w.id > chat.id));
    if (at < 0) this.waiting.push(chat);
    else this.waiting.splice(at, 0, chat);
  }

  has(id: string): boolean {
    return this.waiting.some((w) => w.id === id);
  }

  /** Takes the chat off the queue; false when it was not queued. */
  remove(id: string): boolean {
    const before = this.waiting.length;
    this.waiting = this.waiting.filter((w) => w.id !== id);
    return this.waiting.length !== before;
  }

  /** The queued chats' ids, first to start first. */
  ids(): string[] {
    return this.waiting.map((w) => w.id);
  }

  /** The chats that may start now, with `running` runs going and at most `limit` at once: taken off the queue, in order. */
  take(running: number, limit: number): string[] {
    const free = Math.max(0, limit - running);
    return this.waiting.splice(0, free).map((w) => w.id);
  }
}
