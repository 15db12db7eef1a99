import type { WaypointEvent } from '../../shared/contract';
import { canFold, foldPlanUpdates } from '../../shared/plan-change';
import { Emitter, type Disposable } from '../common/emitter';
import { TurnBatch } from './turn-batch';

type PlanUpdated = Extract<WaypointEvent, { type: 'plan_updated' }>;
type MessageDelta = Extract<WaypointEvent, { type: 'message_delta' }>;
type SubAgentUpdated = Extract<WaypointEvent, { type: 'subagent_updated' }>;
type SubAgentLineEvent = Extract<WaypointEvent, { type: 'subagent_line' }>;
type Held = PlanUpdated | MessageDelta | SubAgentUpdated | SubAgentLineEvent;

/** Events main keeps to itself (its log, its chats of record): the shells never get them. */
const MAIN_ONLY: ReadonlySet<WaypointEvent['type']> = new Set(['subagent_waiting']);

/** Runs a callback at the end of the current tick (after its microtasks); returns a cancel. */
export type TickSchedule = (run: () => void) => () => void;

export const nextTick: TickSchedule = (run) => {
  const handle = setImmediate(run);
  return () => clearImmediate(handle);
};

export interface EventPumpOptions {
  /** Streamed text is sent at most this often per message (default 33 ms: ~30 updates a second). */
  deltaFlushMs?: number;
  /** When held plan updates go out (tests end a tick by hand). */
  schedule?: TickSchedule;
}

/**
 * The one event stream both shells forward (docs/contract.md §1): the services' events in order, with
 * two kinds held back per chat to keep a busy stream cheap to send and to render.
 *
 * - `message_delta`: text is joined per message and sent every `deltaFlushMs`.
 * - `plan_updated`: each carries the whole plan, and a model turn can make hundreds of changes in
 *   one tick; they are folded into the newest snapshot (its `folded` list keeps every change, so
 *   every transcript line survives) and sent at the end of the tick. An update that cannot fold
 *   (another plan, or across its completion) is held after the earlier one; both leave together.
 * - `subagent_updated`: each is the sub-agent's whole snapshot (its plan in it), which the receiver
 *   puts in place of the one before; a reply that starts and completes a step makes two. Only the
 *   newest of a tick is sent, where its last change came (issue 26: one frame and one renderer
 *   commit per sub-agent reply instead of two).
 * - `subagent_line`: a line of a sub-agent's card; each plan change makes one next to a new
 *   snapshot, so sent as it came it would push the held snapshot out every time (two snapshots
 *   per reply again). Lines wait in the tick with the snapshots, in their order.
 *
 * - `subagent_waiting` is never sent: it carries a waiting sub-agent's whole API history (and
 *   those of the sub-agents above it) for the chat's log, which a restart runs it on from; no
 *   renderer reads it (the chat's pending request, tagged with the sub-agent, says it waits),
 *   and a long history would cost every window and socket a large frame for nothing.
 *
 * Anything else of a chat first sends what that chat holds, in the order it arrived; an app-wide
 * event first sends everything. `flush()` sends everything now: the call router does it before
 * each result, so a snapshot never arrives ahead of an event it already contains.
 */
export class EventPump implements Disposable {
  private readonly output = new Emitter<WaypointEvent>();
  /** What each chat holds back, keyed 'plan' or by message, in the order it first arrived. */
  private held = new Map<string, Map<string, Held>>();
  private cancelTick: (() => void) | null = null;
  private deltaTimer: ReturnType<typeof setTimeout> | null = null;
  private readonly deltaFlushMs: number;
  /** Keys apart what is held as its own event, in order (lines, an earlier plan). */
  private serial = 0;
  private readonly schedule: TickSchedule;
  /** The pump's output, event by event (the headless run, the desktop notifier). */
  readonly onEvent = this.output.event;
  private readonly batches = new Emitter<WaypointEvent[]>();
  /**
   * The same output, a turn of the event loop at a time (turn-batch.ts): what the shells forward,
   * one message a turn. What waits for the end of the tick (plans, sub-agent snapshots and lines)
   * joins the batch of the turn that sends anything, so a reply's last events and its plan go as
   * one message; a turn that sent nothing else sends them at the end of the tick as before.
   */
  readonly onBatch = this.batches.event;
  private readonly turn = new TurnBatch<WaypointEvent>(
    (events) => this.batches.fire(events),
    () => this.endTickNow(),
  );

  constructor(options: EventPumpOptions = {}) {
    this.deltaFlushMs = options.deltaFlushMs ?? 33;
    this.schedule = options.schedule ?? nextTick;
  }

  push(event: WaypointEvent): void {
    if (MAIN_ONLY.has(event.type)) return;
    if (event.type === 'message_delta') return this.holdDelta(event);
    if (event.type === 'plan_updated') return this.holdPlan(event);
    if (event.type === 'subagent_updated') return this.holdSubAgent(event);
    if (event.type === 'subagent_line') return this.holdLine(event);
    const sessionId = sessionOf(event);
    if (sessionId === undefined) this.flush();
    else this.flushSession(sessionId);
    this.emit(event);
  }

  /** Sends everything held, in order, and the turn's batch with it (before a call's result). */
  flush(): void {
    this.cancelTick?.();
    this.cancelTick = null;
    if (this.deltaTimer) clearTimeout(this.deltaTimer);
    this.deltaTimer = null;
    for (const sessionId of [...this.held.keys()]) this.flushSession(sessionId);
    this.turn.flush();
  }

  dispose(): void {
    this.cancelTick?.();
    this.cancelTick = null;
    if (this.deltaTimer) clearTimeout(this.deltaTimer);
    this.deltaTimer = null;
    this.held = new Map();
    this.output.dispose();
    this.batches.dispose();
  }

  private emit(event: WaypointEvent): void {
    this.output.fire(event);
    this.turn.push(event);
  }

  private holdDelta(event: MessageDelta): void {
    const chat = this.chat(event.sessionId);
    const key = `text:${event.itemId}`;
    const pending = chat.get(key) as MessageDelta | undefined;
    chat.set(key, pending ? { ...pending, text: pending.text + event.text } : event);
    if (this.deltaFlushMs <= 0) return this.flushSession(event.sessionId);
    this.deltaTimer ??= setTimeout(() => {
      this.deltaTimer = null;
      this.flush();
    }, this.deltaFlushMs);
  }

  private holdPlan(event: PlanUpdated): void {
    const chat = this.chat(event.sessionId);
    const pending = chat.get('plan') as PlanUpdated | undefined;
    if (pending && canFold(pending, event)) {
      chat.set('plan', foldPlanUpdates(pending, event));
    } else {
      // The earlier plan stays held where it was, under a key of its own, and both leave at the
      // end of the tick: sent at once, it went out a turn ahead of the new plan, and the page
      // drew a frame between the two (a new plan waited a frame, bench/README session 8).
      if (pending) this.held.set(event.sessionId, rekey(chat, 'plan', `plan:${this.serial++}`));
      this.chat(event.sessionId).set('plan', event);
    }
    this.endOfTick();
  }

  private holdSubAgent(event: SubAgentUpdated): void {
    const chat = this.chat(event.sessionId);
    const key = `agent:${event.subagent.id}`;
    // Moved to the end: it goes out after everything that came before it, as it would have.
    chat.delete(key);
    chat.set(key, event);
    this.endOfTick();
  }

  private holdLine(event: SubAgentLineEvent): void {
    this.chat(event.sessionId).set(`line:${this.serial++}`, event);
    this.endOfTick();
  }

  /** Plans and sub-agent snapshots held go out at the end of the tick (text keeps its own timer). */
  private endOfTick(): void {
    this.cancelTick ??= this.schedule(() => {
      this.cancelTick = null;
      this.flushTickHeld();
    });
  }

  /** The end of the tick, now: the turn's batch is leaving, and what waits for it goes with it. */
  private endTickNow(): void {
    if (!this.cancelTick) return;
    this.cancelTick();
    this.cancelTick = null;
    this.flushTickHeld();
  }

  private flushTickHeld(): void {
    for (const [sessionId, held] of [...this.held]) if ([...held.keys()].some((key) => !key.startsWith('text:'))) this.flushSession(sessionId);
  }

  private chat(sessionId: string): Map<string, Held> {
    let chat = this.held.get(sessionId);
    if (!chat) this.held.set(sessionId, (chat = new Map()));
    return chat;
  }

  private flushSession(sessionId: string): void {
    const chat = this.held.get(sessionId);
    if (!chat) return;
    this.held.delete(sessionId);
    for (const event of chat.values()) this.emit(event);
  }
}

/** `map` with `from` renamed `to`, in the same place of its order. */
function rekey<V>(map: Map<string, V>, from: string, to: string): Map<string, V> {
  return new Map([...map].map(([key, value]) => [key === from ? to : key, value]));
}

/** The chat an event belongs to; undefined for app-wide events. */
function sessionOf(event: WaypointEvent): string | undefined {
  if (event.type === 'session_updated') return event.session.id;
  return 'sessionId' in event && typeof event.sessionId === 'string' ? event.sessionId : undefined;
}
