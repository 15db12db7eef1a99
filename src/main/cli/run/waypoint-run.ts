import { resolve } from 'node:path';
import type { CallOutput, WaypointEvent } from '../../../shared/contract';
import { isAwaitingApproval } from '../../../shared/plan';
import { continuePlanMessage, isUnfinished } from '../../../shared/plan-pause';
import type { ApprovalRequest } from '../../../shared/prompts';
import { dataInWorkspaceNote } from '../../app/data-folders';
import { createServices, type Services } from '../../app/services';
import { MemorySecretStore } from '../../settings/api-key-store';
import type { RunArgs } from '../cli-args';
import { BadInput } from './bad-input';
import { ANSWERERS, answerApproval, answerBudget, answerCommand, answerPlanProposal, answerRetry, awaitedRetry, shellQuote, type PersonNeeded } from './person-needed';
import { RunOutcome, type RunEnd } from './run-outcome';
import { JsonView, LinesView, type RunView, type Streams } from './run-views';
import { TtyView } from './tty-view';
import { WAYPOINT_COMMAND } from './terminal-words';
import { desktopDataDir } from '../desktop-data-dir';
import { reportSignInsNeeded } from './mcp-sign-in-note';

export interface RunIo extends Streams {
  env: NodeJS.ProcessEnv;
  /** Ctrl+C, SIGTERM, a closed stdout: the callback stops the run cleanly (`why` is said); returns an unsubscribe. */
  onInterrupt(stop: (why: string) => void): () => void;
}


type Snapshot = CallOutput<'getSession'>;
/** How a start or resume left the chat: a run going on (its end decides), none to come, or already decided. */
type Started = { kind: 'running' } | { kind: 'no_run' } | { kind: 'ended'; end: RunEnd };

/**
 * `waypoint run`: the app's services with no window. It starts (or resumes) one chat's run, shows
 * its progress, answers approvals itself (--auto-approve, else a refusal), and ends the process
 * with the exit code docs/contract.md §7 gives for what stopped the run. It never reads stdin.
 */
export async function runHeadless(args: RunArgs, io: RunIo): Promise<number> {
  const continues = !(args.resume && args.answer?.trim().toLowerCase() === 'abort');
  if (continues && !io.env.ANTHROPIC_API_KEY?.trim()) {
    throw new BadInput("no API key: set ANTHROPIC_API_KEY. (The app's saved key is encrypted for the app alone; waypoint run reads the environment.)");
  }
  warnOfDataInWorkspace(args, io);
  const services = await createServices({
    dataDir: args.dataDir,
    workspace: args.workspace,
    shell: 'cli',
    secretStore: new MemorySecretStore(),
    env: io.env,
    settingsOverrides: {
      ...(args.planningStyle ? { planningStyle: args.planningStyle } : {}),
      // This run's plan budget, over Settings' (never saved).
      ...(args.budgetUsd !== null ? { planBudgetUsd: args.budgetUsd } : {}),
      ...(args.maxMinutes !== null ? { planBudgetMinutes: args.maxMinutes } : {}),
      // --worktree: this run only, whatever Settings say; without it Settings' "Work in a git worktree" decides.
      ...(args.worktree ? { worktrees: true } : {}),
    },
  });
  // A remote MCP server wanting a sign-in is said on stderr; the run never waits for it.
  const signIns = reportSignInsNeeded(services, io.stderr);
  try {
    return await new HeadlessRun(args, io, services).run();
  } finally {
    signIns.dispose();
    await services.dispose();
  }
}

/**
 * A data folder inside the workspace: file tools stay out of it (off-limits.ts), but a command can
 * reach it, and with --auto-approve nobody sees a command before it runs. Said once, on stderr.
 */
function warnOfDataInWorkspace(args: RunArgs, io: RunIo): void {
  const note = dataInWorkspaceNote(args.workspace, args.dataDir, io.env);
  if (note) io.stderr.write(`${note}\n`);
}

class HeadlessRun {
  private view: RunView | null = null;
  private outcome: RunOutcome | null = null;
  private sessionId: string | null = null;
  private readonly early: WaypointEvent[] = [];
  private finished!: (end: RunEnd) => void;
  private readonly ended = new Promise<RunEnd>((resolve) => (this.finished = resolve));
  private interrupted = false;

  constructor(
    private readonly args: RunArgs,
    private readonly io: RunIo,
    private readonly services: Services,
  ) {}

  async run(): Promise<number> {
    const { services } = this;
    const events = services.onEvent((event) => this.onEvent(event));
    const agentEvents = services.onAgentEvent((event) => this.view?.agentEvent?.(event));
    const unhook = this.io.onInterrupt((why) => this.interrupt(why));
    try {
      const started = this.args.resume ? await this.resume(this.args.resume) : await this.start();
      if (started.kind === 'ended') return this.finish(started.end);
      if (started.kind === 'no_run') {
        // The answer started nothing (an abort): its effects are published before it returns.
        await new Promise((resolve) => setImmediate(resolve));
        return this.finish(this.outcome!.settle());
      }
      return this.finish(await this.ended);
    } finally {
      unhook();
      events.dispose();
      agentEvents.dispose();
    }
  }

  /** A new chat with the task as its first message. */
  private async start(): Promise<Started> {
    const { task, workspace } = this.args;
    const chat = this.services.chats.newSession({ origin: { kind: 'run' }, workspace });
    this.attach(chat.id, null);
    const sent = await this.services.router('sendMessage', { sessionId: chat.id, text: task });
    if (!sent.ok) throw new BadInput(sent.error.message);
    return { kind: 'running' };
  }

  /** `--resume CHAT_ID [--answer …]`: answer what the chat waits on, or carry on where it stopped. */
  private async resume(sessionId: string): Promise<Started> {
    const { router, sessions } = this.services;
    const found = await router('getSession', { sessionId });
    if (!found.ok) throw new BadInput(`${found.error.message} (data folder: ${this.args.dataDir})`);
    const snapshot = found.value as Snapshot;
    if (this.args.workspace && snapshot.session.workspace && snapshot.session.workspace !== this.args.workspace) {
      throw new BadInput(`chat ${sessionId} works in ${snapshot.session.workspace}, not in ${this.args.workspace}: leave --workspace out to resume it.`);
    }
    try {
      sessions.claim(sessionId);
    } catch (error) {
      throw new BadInput((error as Error).message);
    }
    this.attach(sessionId, snapshot.plan);

    for (const answerer of ANSWERERS) {
      const person = answerer.pending(snapshot);
      if (!person) continue;
      if (this.args.answer === null) return { kind: 'ended', end: { exitCode: 2, kind: 'person_needed', person, text: person.text } };
      const answered = await answerer.answer(router, sessionId, person.requestId, this.args.answer);
      if (!answered.accepted) throw new BadInput(`the answer was not taken: ${answered.error ?? 'the question is no longer open'}.`);
      return { kind: answered.continues ? 'running' : 'no_run' };
    }
    if (snapshot.pendingApproval && this.args.answer !== null) {
      // A person's answer, on the same answer path as the app's buttons.
      const answered = await answerApproval(router, sessionId, snapshot.pendingApproval.id, this.args.answer);
      if (!answered.accepted) throw new BadInput(`the answer was not taken: ${answered.error ?? 'the question is no longer open'}.`);
      return { kind: 'running' };
    }
    if (snapshot.pendingApproval) {
      this.answerApproval(snapshot.pendingApproval);
      return { kind: 'running' };
    }
    const retryId = awaitedRetry(snapshot);
    if (this.args.answer !== null && retryId) {
      const answered = answerRetry(this.services.answerPause, sessionId, retryId, this.args.answer);
      if (!answered.accepted) throw new BadInput(`the answer was not taken: ${answered.error ?? 'the chat no longer awaits "Retry now"'}.`);
      if (answered.continues) return { kind: 'running' };
      return { kind: 'ended', end: { exitCode: 1, kind: 'other', reason: 'aborted', text: 'Not retried: the kept message was not sent again.' } };
    }
    const stop = snapshot.plan?.status === 'active' ? snapshot.plan.budget?.reached : undefined;
    if (stop && this.args.answer === null) return { kind: 'ended', end: this.outcome!.settle() };
    if (stop && this.args.answer !== null) {
      const answered = await answerBudget(router, sessionId, stop.id, this.args.answer);
      if (!answered.accepted) throw new BadInput(`the answer was not taken: ${answered.error ?? 'the plan no longer waits at its budget'}.`);
      if (answered.continues) return { kind: 'running' };
      return { kind: 'no_run' };
    }
    if (this.args.answer !== null && isAwaitingApproval(snapshot.plan)) {
      const answered = await answerPlanProposal(router, sessionId, snapshot.plan, this.args.answer);
      if (!answered.accepted) throw new BadInput(`the answer was not taken: ${answered.error ?? 'the plan is no longer proposed'}.`);
      return { kind: 'running' };
    }
    if (this.args.answer !== null) throw new BadInput(`chat ${sessionId} is not waiting for an answer: leave --answer out to continue it.`);

    const retried = await router('retryRun', { sessionId });
    if (!retried.ok) throw new BadInput(retried.error.message);
    if ((retried.value as { started: boolean }).started) return { kind: 'running' };
    if (isUnfinished(snapshot.plan)) {
      const sent = await router('sendMessage', { sessionId, text: continuePlanMessage(snapshot.plan) });
      if (!sent.ok) throw new BadInput(sent.error.message);
      return { kind: 'running' };
    }
    this.view!.info(`chat ${sessionId} has nothing left to run.`);
    return { kind: 'ended', end: this.outcome!.settle() };
  }

  private attach(sessionId: string, plan: Snapshot['plan']): void {
    this.sessionId = sessionId;
    this.outcome = new RunOutcome(sessionId, plan);
    this.view = this.args.json ? new JsonView(sessionId, this.io) : this.io.stdout.isTTY ? new TtyView(sessionId, plan, this.io, this.io.env) : new LinesView(sessionId, plan, this.io);
    for (const event of this.early.splice(0)) this.onEvent(event);
  }

  private onEvent(event: WaypointEvent): void {
    if (!this.view || !this.outcome) {
      this.early.push(event);
      return;
    }
    this.view.event(event);
    if (event.type === 'approval_requested' && event.sessionId === this.sessionId) {
      // Answered once the loop waits on it (it asks right after announcing the request).
      setImmediate(() => this.answerApproval(event.request));
      return;
    }
    const end = this.outcome.observe(event);
    if (end) this.finished(end);
  }

  /**
   * --auto-approve approves; otherwise the call is refused, named, and the run ends with 4. A
   * protected change (git's configuration or hooks) always asks a person, and a run cannot ask:
   * it is refused even with --auto-approve, and says why.
   */
  private answerApproval(request: ApprovalRequest): void {
    const approve = this.args.autoApprove && !request.protected;
    if (!approve) this.outcome!.refused({ tool: request.toolName, summary: request.summary, ...(request.protected ? { protected: request.protected } : {}) });
    const refusedWhy = request.protected ? 'always asks; --auto-approve does not cover it' : 'no --auto-approve';
    this.view!.info(approve ? `approved (--auto-approve): ${request.summary}` : `refused (${refusedWhy}): ${request.summary}`);
    void this.services.router('answerApproval', { sessionId: request.sessionId, requestId: request.id, decision: approve ? 'approve' : 'deny' });
  }

  private interrupt(why: string): void {
    if (this.interrupted || !this.sessionId) return;
    this.interrupted = true;
    this.view?.info(`stopping (${why})… the chat stays resumable.`);
    void this.services.router('stop', { sessionId: this.sessionId }).then(async (result) => {
      const stopped = result.ok && (result.value as { stopped: boolean }).stopped;
      // Nothing was running (a question pending, or between runs): end with what there is.
      if (!stopped) this.finished({ exitCode: 1, kind: 'other', reason: 'stopped', text: 'Stopped before the run went on.' });
    });
  }

  private async finish(end: RunEnd): Promise<number> {
    const id = this.sessionId!;
    // The first request went out while the worktree was still being checked out: the footer names
    // the worktree only once it is whole (a failed one is gone, and the chat says why).
    await this.services.worktreesIdle();
    const options = { dataDir: this.args.dataDir, json: this.args.json, autoApprove: this.args.autoApprove };
    // The API's error was just printed as the feed's last line: the footer does not say it again.
    const footer = [end.kind === 'api_failed' ? 'The run stopped on the API error above.' : end.text];
    const details: Record<string, unknown> = {};
    if (end.kind === 'person_needed') {
      footer.push(...personLines(end.person));
      details.person = end.person;
      details.answerCommand = answerCommand(id, options);
      footer.push(`Answer with: ${details.answerCommand as string}`);
    } else if (end.kind === 'budget') {
      details.spentUsd = end.spentUsd;
      details.answerCommand = answerCommand(id, options);
      footer.push('Answers: "extend" (the budget once more), "end" (the plan ends partly done)');
      footer.push(`Answer with: ${details.answerCommand as string}`);
    } else if (end.kind === 'refused') {
      details.refusals = end.refusals;
      if (end.refusals.some((r) => !r.protected)) {
        footer.push('Run again with --auto-approve to allow them, or allow them in Settings (auto-approve edits or commands, the command allow-list).');
      }
      if (end.refusals.some((r) => r.protected)) {
        footer.push('Changes to git\'s configuration or hooks always ask a person: no flag or setting allows them in a run. Approve it in the Waypoint app (open the chat there and ask again), or make the change yourself.');
      }
    } else if (end.exitCode === 3 || (end.kind === 'other' && (end.reason === 'stopped' || end.reason === 'unfinished' || end.reason === 'cut_off'))) {
      const resume = [`${WAYPOINT_COMMAND} run --resume`, id, '--data-dir', shellQuote(this.args.dataDir), ...(this.args.json ? ['--json'] : []), ...(this.args.autoApprove ? ['--auto-approve'] : [])].join(' ');
      details.resumeCommand = resume;
      footer.push(`Continue with: ${resume}`);
    }
    // A worktree run's work stays on its branch for a person to review: it is never merged or removed here.
    const worktree = this.services.chats.sessionInMemory(id)?.summary.worktree ?? this.services.chats.listSessions().find((s) => s.id === id)?.worktree;
    if (worktree) {
      details.worktree = { branch: worktree.branch, path: worktree.path, repository: worktree.repo, baseBranch: worktree.baseBranch };
      const into = worktree.baseBranch ? `Merge into ${worktree.baseBranch} or discard it in the Waypoint app's Changes` : 'Review it in the Waypoint app\'s Changes';
      footer.push(`The work is on branch ${worktree.branch} (worktree ${worktree.path}), left for review: ${into}.`);
    }
    // The app opens its own folder (or WAYPOINT_DATA_DIR's): a chat elsewhere is not in its list.
    const appSees = resolve(desktopDataDir(this.io.env)) === resolve(this.args.dataDir);
    const where = appSees ? 'the Waypoint app shows it.' : `the Waypoint app shows it when started with WAYPOINT_DATA_DIR=${shellQuote(this.args.dataDir)}.`;
    footer.push(`Chat ${id} (data folder ${this.args.dataDir}); ${where}`);
    this.view!.finish(end, id, details, footer);
    return end.exitCode;
  }
}

function personLines(person: PersonNeeded): string[] {
  const answers = [...person.options.map((o) => `"${o}"`), ...(person.freeText ? [`or ${person.freeText}`] : [])];
  return [`Answers: ${answers.join(', ')}`];
}
