/**
 * Items pushed in one turn of the event loop, handed on as one batch at the end of that turn
 * (`process.nextTick`, after the turn's promise jobs too). The event pump sends its output this
 * way (`onBatch`), and each shell sends a batch to the page as one message, which the page takes
 * in one task and renders in one commit.
 *
 * Sent one message each, every event was its own task in the page, and the page could draw a
 * frame between two events main sent in the same moment — a plan's last change and the next
 * plan, or a reply's last events and its plan — so the second waited a frame behind the first
 * (bench/README.md, session 8). Order is kept: a batch leaves in the order its items came, and
 * `flush()` hands on what is held at once, for a call's result that must not overtake them.
 * `before` runs first at each flush: what its owner holds for the end of the turn joins the batch.
 */
export class TurnBatch<T> {
  private held: T[] = [];
  private scheduled = false;

  constructor(
    private readonly send: (items: T[]) => void,
    private readonly before: () => void = () => {},
  ) {}

  push(item: T): void {
    this.held.push(item);
    if (this.scheduled) return;
    this.scheduled = true;
    process.nextTick(() => this.flush());
  }

  /** Sends what is held now (nothing when empty); the turn's scheduled send then finds nothing. */
  flush(): void {
    this.scheduled = false;
    this.before();
    if (this.held.length === 0) return;
    const items = this.held;
    this.held = [];
    this.send(items);
  }
}
