import type { WaypointEvent } from '../../../shared/contract';
import type { GoalCheck, Plan, PlanStep } from '../../../shared/plan';
import { planChangeItems } from '../../../shared/plan-change';
import type { RunState } from '../../../shared/transcript';
import { completedWords, inTerminalWords } from './terminal-words';

/** One line of human output, with what it is (the views colour by kind). */
export interface FeedLine {
  kind: 'text' | 'tool' | 'tool_error' | 'plan' | 'notice' | 'warning' | 'error';
  text: string;
}

/**
 * Turns a run's events into what a person reads: Claude's text line by line as it streams, one
 * line per finished tool call, the plan's changes, notices. It keeps what the live view shows
 * (the plan, the run's state, the tool running now). Both human views (tty-view.ts,
 * lines-view.ts) print its lines; only the live view draws its state.
 */
export class RunFeed {
  plan: Plan | null = null;
  runState: RunState = { status: 'idle' };
  /** The tool call running now, by its card's summary. */
  activeTool: string | null = null;
  private readonly partial = new Map<string, string>();
  private readonly streamed = new Set<string>();
  private readonly toolDone = new Set<string>();

  constructor(
    private readonly sessionId: string,
    initialPlan: Plan | null,
  ) {
    this.plan = initialPlan;
  }

  /** The lines this event adds (possibly none); the state is updated either way. */
  take(event: WaypointEvent): FeedLine[] {
    if (!('sessionId' in event) || event.sessionId !== this.sessionId) return [];
    switch (event.type) {
      case 'message_delta':
        return this.text(event.itemId, event.text, false);
      case 'run_state':
        this.runState = event.state;
        if (event.state.status === 'retrying') return [{ kind: 'warning', text: `${event.state.reason} Retrying (attempt ${event.state.attempt} of ${event.state.maxAttempts})…` }];
        return [];
      case 'plan_updated': {
        const lines = planChangeItems(this.plan, event).map((item): FeedLine => ({
          kind: 'plan',
          text: item.kind === 'plan_change' ? `Plan: ${item.text}` : `Plan ${item.completion.status === 'success' ? completedWords(item.counts.skipped) : 'ended'}: ${item.completion.summary}`,
        }));
        this.plan = event.plan;
        // The goal check's verdict has no transcript line (its card shows it): a line of its own here.
        const check = event.change.kind === 'goal_check' && event.change.action === 'verdict' ? event.plan.goalChecks?.at(-1) : undefined;
        return check ? [...lines, { kind: check.outcome === 'met' ? 'plan' : 'warning', text: goalCheckWords(check) }] : lines;
      }
      case 'transcript_item': {
        const item = event.item;
        if (item.kind === 'assistant') return item.status === 'streaming' ? [] : this.text(item.id, '', true, item.text);
        if (item.kind === 'notice') return [{ kind: item.level === 'info' ? 'notice' : item.level, text: inTerminalWords(item.text) }];
        if (item.kind !== 'tool_call') return [];
        if (item.status === 'running') {
          this.activeTool = item.summary;
          return [];
        }
        if (item.status === 'awaiting_approval' || this.toolDone.has(item.id)) return [];
        this.toolDone.add(item.id);
        if (this.activeTool === item.summary) this.activeTool = null;
        const took = item.durationMs !== undefined ? ` (${formatMs(item.durationMs)})` : '';
        if (item.status === 'done') return [{ kind: 'tool', text: `${item.summary}${took}` }];
        return [{ kind: 'tool_error', text: `${item.summary}: ${firstLine(item.result ?? item.status)}` }];
      }
      default:
        return [];
    }
  }

  /** What is left of streamed text (the run ended mid-line). */
  drain(): FeedLine[] {
    const lines = [...this.partial.values()].filter((t) => t.trim()).map((text): FeedLine => ({ kind: 'text', text }));
    this.partial.clear();
    return lines;
  }

  /** The step in progress, else the next pending one. */
  currentStep(): PlanStep | null {
    const steps = this.plan?.steps ?? [];
    return steps.find((s) => s.status === 'in_progress') ?? null;
  }

  private text(itemId: string, delta: string, done: boolean, full?: string): FeedLine[] {
    let buffer = this.partial.get(itemId) ?? '';
    if (delta) {
      this.streamed.add(itemId);
      buffer += delta;
    } else if (done && !this.streamed.has(itemId) && full) {
      buffer = full; // a reply whose text came whole, with no deltas
    }
    const parts = buffer.split('\n');
    const rest = parts.pop()!;
    if (done) {
      this.partial.delete(itemId);
      this.streamed.delete(itemId);
      if (rest) parts.push(rest);
    } else {
      this.partial.set(itemId, rest);
    }
    return parts.map((text) => ({ kind: 'text', text }));
  }
}

export function formatMs(ms: number): string {
  return ms >= 1000 ? `${(ms / 1000).toFixed(1)} s` : `${ms} ms`;
}

export function firstLine(text: string): string {
  const line = text.split('\n').find((l) => l.trim()) ?? '';
  return line.length > 160 ? `${line.slice(0, 159)}…` : line;
}

/** "3/5 steps · 60%". */
export function progressText(plan: Plan): string {
  // The panel's numbers: completed steps of all, and its percentage.
  const { completed, total, percent } = plan.summary;
  return `${completed}/${total} steps · ${percent}%`;
}

/** What the run is doing, in a few words, for the live view. */
export function activityText(feed: RunFeed): string {
  const state = feed.runState;
  switch (state.status) {
    case 'running':
      if (state.phase === 'tools') return feed.activeTool ? `Running: ${feed.activeTool}` : 'Running tools…';
      return state.phase === 'streaming' ? 'Claude is writing…' : 'Claude is thinking…';
    case 'retrying':
      return `Retrying (${state.attempt}/${state.maxAttempts}): ${state.reason}`;
    case 'awaiting_approval':
      return 'Waiting for an approval…';
    case 'awaiting_escalation':
      return 'A step needs a decision…';
    default:
      return 'Idle';
  }
}

/** "Goal check: met", "Goal check: not met: A; B", "Goal check failed: why". */
function goalCheckWords(check: GoalCheck): string {
  if (check.outcome === 'met') return 'Goal check: met';
  if (check.outcome === 'failed') return `Goal check failed: ${check.error ?? 'no verdict'}`;
  const tail = check.noProgress ? ' (the same findings again: no further round)' : check.reopened ? ' (the plan reopened with a Fix step for each)' : '';
  return `Goal check: not met: ${check.findings.join('; ')}${tail}`;
}
