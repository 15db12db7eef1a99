import type { WaypointEvent } from '../../../shared/contract';
import type { AgentEvent } from '../../../shared/agent-events';
import type { Plan, PlanStep } from '../../../shared/plan';
import { stepNumbers } from '../../../shared/step-numbers';
import { inertJson, terminalText } from '../terminal-text';
import type { RunEnd } from './run-outcome';
import { progressText, RunFeed, type FeedLine } from './run-feed';

/** Where a headless run's progress goes: JSON lines, plain lines, or a live task list. */
export interface RunView {
  event(event: WaypointEvent): void;
  /** An event of a sub-agent's own run (only --json prints them). */
  agentEvent?(event: AgentEvent): void;
  /** A line from Waypoint itself: an approval given or refused, a lock taken over. */
  info(text: string): void;
  /** The last word: how the run ended, and what to do next (lines for a person). */
  finish(end: RunEnd, sessionId: string, details: Record<string, unknown>, footer: string[]): void;
}

export interface Streams {
  stdout: NodeJS.WritableStream & { isTTY?: boolean; columns?: number; rows?: number };
  stderr: NodeJS.WritableStream;
}

// ---- --json -----------------------------------------------------------------------------------

/** `--json`: stdout holds only JSON lines, `{"type", "sessionId", …}`, the last one `run_finished`. */
export class JsonView implements RunView {
  constructor(
    private readonly sessionId: string,
    private readonly streams: Streams,
  ) {}

  event(event: WaypointEvent): void {
    const sessionId = event.type === 'session_updated' ? event.session.id : 'sessionId' in event ? event.sessionId : undefined;
    if (sessionId !== this.sessionId) return;
    // "type" and "sessionId" lead every line; session_updated gets the id its summary holds.
    this.line(Object.assign({ type: event.type, sessionId }, event));
  }

  /** A sub-agent's event: the chat's sessionId, and `agent {id, title, depth}` saying whose it is. */
  agentEvent({ chatId, agent, event }: AgentEvent): void {
    if (chatId !== this.sessionId) return;
    const { sessionId: _own, ...rest } = event as WaypointEvent & { sessionId?: string };
    this.line({ ...rest, type: event.type, sessionId: chatId, agent });
  }

  // stderr is usually the terminal even when stdout is piped: its words are made inert there.
  info(text: string): void {
    this.streams.stderr.write(`waypoint: ${terminalText(text)}\n`);
  }

  finish(end: RunEnd, sessionId: string, details: Record<string, unknown>, footer: string[]): void {
    this.line({ type: 'run_finished', sessionId, exitCode: end.exitCode, outcome: end.kind, message: end.text, ...details });
    for (const line of footer) this.streams.stderr.write(`${terminalText(line)}\n`);
  }

  /** The content as it was (a script reads it back unchanged); no raw control byte reaches a terminal that shows it. */
  private line(value: Record<string, unknown>): void {
    this.streams.stdout.write(`${inertJson(value)}\n`);
  }
}

// ---- plain lines (stdout is not a terminal) ------------------------------------------------------

const MARK: Record<FeedLine['kind'], string> = { text: '', tool: '  ✓ ', tool_error: '  ✗ ', plan: '» ', notice: '· ', warning: '! ', error: '✗ ' };

/** Plain lines for logs and pipes: nothing is redrawn, every change is a line. */
export class LinesView implements RunView {
  private readonly feed: RunFeed;
  private planId: string | null;

  constructor(
    private readonly sessionId: string,
    initialPlan: Plan | null,
    private readonly streams: Streams,
  ) {
    this.feed = new RunFeed(sessionId, initialPlan);
    this.planId = initialPlan?.id ?? null;
  }

  event(event: WaypointEvent): void {
    for (const line of this.feed.take(event)) this.write(`${MARK[line.kind]}${line.text}`);
    if (event.type !== 'plan_updated' || event.sessionId !== this.sessionId) return;
    const plan = event.plan;
    if (plan.id !== this.planId) {
      this.planId = plan.id;
      for (const step of plan.steps) this.write(`   ${'  '.repeat(depth(plan, step))}${stepLabel(plan, step)}. ${step.title}`);
    }
    const current = this.feed.currentStep();
    this.write(`» [${progressText(plan)}]${current ? ` now: step ${stepLabel(plan, current)} "${current.title}"` : ''}`);
  }

  info(text: string): void {
    this.write(`· ${text}`);
  }

  finish(end: RunEnd, _sessionId: string, _details: Record<string, unknown>, footer: string[]): void {
    for (const line of this.feed.drain()) this.write(line.text);
    this.write('');
    for (const line of footer) this.write(line);
  }

  /** Every line passes here, so nothing Claude or a tool wrote reaches the terminal as a control sequence. */
  private write(line: string): void {
    this.streams.stdout.write(`${terminalText(line)}\n`);
  }
}

// ---- shared bits ---------------------------------------------------------------------------------

/** How deep a step sits under its parents (WBS plans are hierarchical). */
export function depth(plan: Plan, step: PlanStep): number {
  let n = 0;
  let parent = step.parentId;
  const seen = new Set<number>();
  while (parent !== undefined && parent !== null && !seen.has(parent) && n < 8) {
    seen.add(parent);
    n++;
    parent = plan.steps.find((s) => s.id === parent)?.parentId;
  }
  return n;
}

/**
 * A step's number as the panel and the transcript's lines show it: its position (1, 2, 3; 2.1),
 * or its dialect's label (the WBS id "1.2") — never Claude's id, which differs once a step is
 * added or moved (shared/step-numbers.ts).
 */
export function stepLabel(plan: Plan, step: PlanStep): string {
  return stepNumbers(plan.steps).get(step.id) ?? step.label ?? String(step.id);
}
