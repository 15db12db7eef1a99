import { budgetAskedText, budgetPromptOf } from './budget';
import type { WaypointEvent } from './contract';
import { askedBy } from './prompts';
import type { RunState } from './transcript';

/**
 * When Waypoint calls a person (docs/contract.md §8 "Notifications"), in one place both shells
 * use: the desktop notifier in main and the web shell's browser notifications in the renderer.
 * Derived from the run states and the prompts the pump carries, so it does not depend on how a
 * run pauses or ends.
 */

/** A chat waits for a person while its run state is one of the awaiting_* states. */
export function isWaiting(state: RunState | undefined): boolean {
  return state !== undefined && state.status.startsWith('awaiting_');
}

/** The badge's number: chats waiting for a person. */
export function countWaiting(states: Iterable<RunState>): number {
  let count = 0;
  for (const state of states) if (isWaiting(state)) count++;
  return count;
}

/** One notification per chat: a newer one (the next wait, "Done") replaces the last. */
export function attentionTag(sessionId: string): string {
  return `waypoint-chat-${sessionId}`;
}

export const DONE_BODY = 'Done';

const clip = (text: string, max: number): string => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/** What a prompt asks, in a line a notification can hold; null for an event that asks nothing. */
export function whatIsAsked(event: WaypointEvent): string | null {
  switch (event.type) {
    case 'escalation_requested': {
      const { request } = event;
      const who = request.stepId === null ? 'A task' : `Step ${request.stepId} ("${request.stepTitle.slice(0, 80)}")`;
      return askedBy(request, `${who} keeps failing. Skip it, abort the plan, or give Claude guidance.`);
    }
    case 'approval_requested':
      return askedBy(event.request, `${clip(event.request.summary, 120)} — approve or deny it.`);
    case 'question_requested': {
      const { request } = event;
      const options = request.options.length ? ` (${clip(request.options.join(' / '), 80)})` : '';
      return askedBy(request, `${clip(request.question, 160)}${options}`);
    }
    case 'plan_updated': {
      // "Budget reached" has no request event of its own: the plan awaits the answer (shared/budget.ts).
      const prompt = budgetPromptOf(event.sessionId, event.plan);
      return prompt ? budgetAskedText(prompt) : null;
    }
    default:
      return null;
  }
}

export interface Attention {
  sessionId: string;
  kind: 'waiting' | 'done';
  /** What is asked, or "Done". */
  body: string;
  tag: string;
}

const RUNNING: ReadonlySet<RunState['status']> = new Set(['running', 'retrying']);

/**
 * Follows the event stream and says which events call a person: a prompt the chat starts waiting
 * on (once per prompt, however often it is announced again) and a run that finishes. Which chat
 * is in view, and whether to show anything, is the shell's business.
 */
export class AttentionWatch {
  private readonly states = new Map<string, RunState>();
  /** Per chat, the prompt already announced: a repeat of it (a reconnect, a second door) is not a new wait. */
  private readonly announced = new Map<string, string>();
  /** Chats found waiting at start (restored from their logs), until an event of theirs says more. */
  private readonly waitingAtStart = new Set<string>();
  /** Chats whose plan awaits "Budget reached": their run is idle, yet they wait for a person. */
  private readonly budgetStops = new Set<string>();

  /** The chats already waiting when the watch starts: a restored wait fires no event, yet counts. */
  seed(sessionIds: Iterable<string>): void {
    for (const id of sessionIds) if (!this.states.has(id)) this.waitingAtStart.add(id);
  }

  take(event: WaypointEvent): Attention | null {
    switch (event.type) {
      case 'run_state': {
        const before = this.states.get(event.sessionId);
        this.states.set(event.sessionId, event.state);
        this.waitingAtStart.delete(event.sessionId);
        // Only a run that was working and stopped is "Done": Stop while a prompt waits is the user's own doing,
        // and a run that stopped at its budget waits (announced by its plan) rather than being done.
        if (event.state.status !== 'idle' || this.budgetStops.has(event.sessionId) || !before || !RUNNING.has(before.status)) return null;
        return { sessionId: event.sessionId, kind: 'done', body: DONE_BODY, tag: attentionTag(event.sessionId) };
      }
      case 'approval_requested':
      case 'escalation_requested':
      case 'question_requested': {
        if (this.announced.get(event.sessionId) === event.request.id) return null;
        this.announced.set(event.sessionId, event.request.id);
        return { sessionId: event.sessionId, kind: 'waiting', body: whatIsAsked(event) ?? '', tag: attentionTag(event.sessionId) };
      }
      case 'plan_updated': {
        const asked = whatIsAsked(event);
        if (asked === null) {
          this.budgetStops.delete(event.sessionId);
          return null;
        }
        this.budgetStops.add(event.sessionId);
        const requestId = budgetPromptOf(event.sessionId, event.plan)!.requestId;
        if (this.announced.get(event.sessionId) === requestId) return null;
        this.announced.set(event.sessionId, requestId);
        return { sessionId: event.sessionId, kind: 'waiting', body: asked, tag: attentionTag(event.sessionId) };
      }
      case 'session_deleted':
        this.budgetStops.delete(event.sessionId);
        this.states.delete(event.sessionId);
        this.announced.delete(event.sessionId);
        this.waitingAtStart.delete(event.sessionId);
        return null;
      default:
        return null;
    }
  }

  /** Chats waiting for a person, as far as the events seen (and the chats seeded at start) tell. */
  waiting(): number {
    let stopped = 0;
    for (const id of this.budgetStops) if (!isWaiting(this.states.get(id)) && !this.waitingAtStart.has(id)) stopped++;
    return countWaiting(this.states.values()) + this.waitingAtStart.size + stopped;
  }
}
