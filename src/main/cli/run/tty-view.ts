import { styleText } from 'node:util';
import { createLogUpdate } from 'log-update';
import type { WaypointEvent } from '../../../shared/contract';
import type { Plan, PlanStep, StepStatus } from '../../../shared/plan';
import { terminalText } from '../terminal-text';
import type { RunEnd } from './run-outcome';
import { activityText, RunFeed, type FeedLine } from './run-feed';
import { depth, stepLabel, type RunView, type Streams } from './run-views';

type Style = Parameters<typeof styleText>[0];

const STEP_MARK: Record<StepStatus, { mark: string; style: Style }> = {
  completed: { mark: '✔', style: 'green' },
  in_progress: { mark: '▶', style: 'cyan' },
  pending: { mark: '○', style: 'gray' },
  failed: { mark: '✖', style: 'red' },
  skipped: { mark: '⊘', style: 'yellow' },
};

const LINE_STYLE: Record<FeedLine['kind'], { prefix: string; style: Style | null }> = {
  text: { prefix: '', style: null },
  tool: { prefix: '  ✓ ', style: 'gray' },
  tool_error: { prefix: '  ✗ ', style: 'red' },
  plan: { prefix: '» ', style: 'cyan' },
  notice: { prefix: '· ', style: 'gray' },
  warning: { prefix: '! ', style: 'yellow' },
  error: { prefix: '✗ ', style: 'red' },
};

const BAR_WIDTH = 24;

/**
 * The live task list for a terminal: finished lines (Claude's text, tool calls, plan changes)
 * scroll up as usual, and below them the plan is redrawn in place — every step with its status,
 * the current step highlighted, the counts and a progress bar, and what Claude is doing now.
 *
 * Drawn with log-update: small, widely used, and it does the one hard part right (erasing exactly
 * the lines drawn last, wrapped lines included, whatever the terminal width) while `persist`
 * keeps ordinary output scrolling above the live region. A full TUI framework (ink) would bring a
 * renderer and a layout engine, and listr2 models tasks fixed up front, not a plan that changes.
 */
export class TtyView implements RunView {
  private readonly feed: RunFeed;
  private readonly draw: ReturnType<typeof createLogUpdate>;
  private readonly color: boolean;

  constructor(
    sessionId: string,
    initialPlan: Plan | null,
    private readonly streams: Streams,
    env: NodeJS.ProcessEnv = process.env,
  ) {
    this.feed = new RunFeed(sessionId, initialPlan);
    this.draw = createLogUpdate(sizedTerminal(streams.stdout), { defaultWidth: 100, defaultHeight: 30 });
    this.color = !env.NO_COLOR && env.TERM !== 'dumb';
  }

  event(event: WaypointEvent): void {
    const lines = this.feed.take(event);
    if (lines.length) this.draw.persist(lines.map((line) => this.styled(line)).join('\n'));
    this.draw(this.frame());
  }

  info(text: string): void {
    this.draw.persist(this.paint('gray', `· ${text}`));
    this.draw(this.frame());
  }

  finish(end: RunEnd, _sessionId: string, _details: Record<string, unknown>, footer: string[]): void {
    const rest = this.feed.drain();
    if (rest.length) this.draw.persist(rest.map((line) => this.styled(line)).join('\n'));
    // The final state of the plan stays on screen, then the verdict.
    const plan = this.planLines();
    this.draw(plan.length ? plan.join('\n') : '');
    this.draw.done();
    const style: Style = end.exitCode === 0 ? 'green' : end.exitCode === 2 ? 'yellow' : 'red';
    const [first, ...others] = footer;
    if (first !== undefined) this.streams.stdout.write(`${this.paint(style, first)}\n`);
    for (const line of others) this.streams.stdout.write(`${terminalText(line)}\n`);
  }

  private frame(): string {
    const lines = this.planLines();
    lines.push(this.paint('gray', `  ${activityText(this.feed)}`));
    return lines.join('\n');
  }

  private planLines(): string[] {
    const plan = this.feed.plan;
    if (!plan || plan.steps.length === 0) return [];
    const rows = Math.max(8, (this.streams.stdout.rows || 30) - 6);
    const steps = visibleSteps(plan.steps, rows);
    const lines = [this.paint('bold', `Plan: ${plan.goal}`)];
    if (steps.before) lines.push(this.paint('gray', `  … ${steps.before} earlier step${steps.before === 1 ? '' : 's'}`));
    for (const step of steps.shown) lines.push(this.stepLine(plan, step));
    if (steps.after) lines.push(this.paint('gray', `  … ${steps.after} more step${steps.after === 1 ? '' : 's'}`));
    lines.push(this.progressLine(plan));
    return lines;
  }

  private stepLine(plan: Plan, step: PlanStep): string {
    const { mark, style } = STEP_MARK[step.status];
    const text = terminalText(`${'  '.repeat(depth(plan, step) + 1)}${mark} ${stepLabel(plan, step)}. ${step.title}`);
    return step.status === 'in_progress' ? this.colour('bold', this.colour(style, text)) : this.colour(style, text);
  }

  private progressLine(plan: Plan): string {
    const { completed, total, percent } = plan.summary;
    const filled = Math.round((BAR_WIDTH * percent) / 100);
    const bar = `${'█'.repeat(filled)}${'░'.repeat(BAR_WIDTH - filled)}`;
    const current = plan.steps.find((s) => s.status === 'in_progress');
    const now = current ? ` · Step ${stepLabel(plan, current)}: ${current.title}` : plan.status === 'active' ? '' : ` · ${plan.status}`;
    return `  ${this.paint('cyan', bar)} ${completed}/${total} steps · ${percent}%${terminalText(now)}`;
  }

  private styled(line: FeedLine): string {
    const { prefix, style } = LINE_STYLE[line.kind];
    return style ? this.paint(style, `${prefix}${line.text}`) : terminalText(`${prefix}${line.text}`);
  }

  /**
   * Text made inert, then coloured: the view's own escapes (colours, and log-update's redrawing)
   * are added after, so they are the only ones that reach the terminal.
   */
  private paint(style: Style, text: string): string {
    return this.colour(style, terminalText(text));
  }

  /** Colours text that is inert already (made so by terminalText, or coloured by this view). */
  private colour(style: Style, text: string): string {
    return this.color ? styleText(style, text) : text;
  }
}

/**
 * The terminal as log-update sees it. A pseudo-terminal nobody sized (`docker run -t`, `script`
 * in a CI job) reports 0 columns and 0 rows, and log-update draws nothing at all on a terminal of
 * height 0 — not even the lines meant to scroll. An unknown size is taken as the defaults instead.
 */
function sizedTerminal(stdout: Streams['stdout']): NodeJS.WritableStream {
  const terminal: Pick<Streams['stdout'], 'write' | 'isTTY' | 'columns' | 'rows'> = {
    write: (chunk: string | Uint8Array) => stdout.write(chunk),
    isTTY: stdout.isTTY,
    get columns() {
      return stdout.columns || undefined;
    },
    get rows() {
      return stdout.rows || undefined;
    },
  };
  // log-update only writes and reads these four; writing straight through keeps the order with
  // what the view writes to stdout itself.
  return terminal as NodeJS.WritableStream;
}

/** The steps that fit, around the current one: a long plan still shows where the work is. */
function visibleSteps(steps: readonly PlanStep[], room: number): { shown: PlanStep[]; before: number; after: number } {
  if (steps.length <= room) return { shown: [...steps], before: 0, after: 0 };
  const focus = Math.max(0, steps.findIndex((s) => s.status === 'in_progress' || s.status === 'pending'));
  const start = Math.min(Math.max(0, focus - Math.floor(room / 3)), steps.length - room);
  return { shown: steps.slice(start, start + room), before: start, after: steps.length - start - room };
}
