import type { ToolResultBlockParam, ToolUseBlock } from '@anthropic-ai/sdk/resources/messages';
import type { EscalationRequest } from '../../../shared/prompts';
import type { Settings } from '../../../shared/settings';
import type { ToolCallItem } from '../../../shared/transcript';
import type { ApprovalCheck } from '../pauses/approval-step';
import type { ToolRecoveryHooks } from '../../recovery/recovery-types';
import type { ParsedInput, ToolDefinition, ToolImage, ToolOutcome, UserQuestion } from '../../tools/tool';
import type { Pause } from '../pauses/pause-kind';
import type { Attachment } from '../../../shared/attachments';
import { attachmentBlock } from '../../attachments/attachment-blocks';
import { newItemId, nowIso } from '../../common/transcript-items';
import { knownFailure } from './tool-precheck';
import { DELEGATE } from '../../tools/delegate';
import { INTERRUPTED_EFFECT, PREPARING_WORKTREE } from '../../../shared/tool-results';

/** Long results stay whole for Claude but are clipped on the transcript card. */
const CARD_RESULT_CHARS = 20_000;

export interface ToolRunContext {
  sessionId: string;
  signal: AbortSignal;
  settings: Settings;
  /** Planning tools first: they win a name clash with the registry. */
  tools: ToolDefinition[];
  /** Upserts a tool_call card in the transcript. */
  showCard(item: ToolCallItem): void;
  /** The approval gate (approval-step.ts): a risky call ends the run, held until the user answers. */
  approve?: ApprovalCheck;
  /**
   * The call the user approved after the run that asked ended (prompt-answers.ts): it runs now
   * without asking again (and without the plan-first check, passed before it asked), with every
   * other hook a call gets, on the card it already has.
   */
  approved: { toolUseId: string; card: ToolCallItem | undefined } | null;
  /** Checkpoints, recovery hints and escalation (src/main/recovery). */
  recovery: ToolRecoveryHooks;
  /** Checks, scales and stores images a tool returned (attachment-service.ts); those that cannot go become sentences. */
  storeImages(toolName: string, images: readonly ToolImage[]): Promise<{ attachments: Attachment[]; problems: string[] }>;
  /** Claude's question for the user (question-step.ts), asked on behalf of the tool call that asks: the run ends there. */
  ask?(toolUseId: string, question: UserQuestion): Pause;
  /** Plan first: why this tool may not run now (the tool error Claude gets), or null (plan-first.ts). */
  refuse?(tool: ToolDefinition): string | null;
  /**
   * The chat's workspace is a worktree still being checked out: every call waits for the whole
   * tree (null: it is whole) or gets why it never will be. Null at once when there is nothing to wait for.
   */
  workspaceReady?(): Promise<string | null> | null;
  /** A call about to run; the returned function takes how it ended (the plan lists calls per step). */
  track?(call: { tool: ToolDefinition; summary: string; toolUseId: string }): (end: { durationMs: number; ok: boolean }) => void;
  /**
   * A call's result, as soon as the call ends (its batch's results reach the history only when
   * the whole batch has): the run (the chat's or a parent sub-agent's) keeps them while a
   * sub-agent of that batch waits for the user, so its log has them (sub-agents.ts).
   */
  ended?(result: ToolResultBlockParam): void;
}

/**
 * 'halted': the user aborted the plan; the remaining tool_uses did not run. 'paused': the run
 * ends at a question (an approval, Claude's question, an escalation) — its call and those after
 * it have no result yet, and the pause's events make the chat await the answer.
 */
export type ToolRunEnd = { kind: 'done' } | { kind: 'halted' } | { kind: 'paused'; pause: Pause };
const DONE: ToolRunEnd = { kind: 'done' };

const STOPPED = 'Stopped by the user before this tool finished.';

/**
 * Runs the tool_use blocks of one assistant turn in order and returns exactly one tool_result
 * per block (appended to `results` as they finish, so a Stop keeps the finished ones). Never
 * throws: unknown tools and throwing tools become is_error results Claude can act on.
 */
export async function runToolUses(blocks: ToolUseBlock[], ctx: ToolRunContext, results: ToolResultBlockParam[]): Promise<ToolRunEnd> {
  for (let i = 0; i < blocks.length; ) {
    if (ctx.signal.aborted) return DONE;
    // Delegate calls next to each other run at once (their sub-agents wait for slots of "Sub-agents
    // at once" themselves); their results still go in Claude's order, and the first end wins.
    const group = blocks[i]!.name === DELEGATE ? delegateRun(blocks, i) : [blocks[i]!];
    i += group.length;
    const done = await Promise.all(group.map((block) => runOne(block, ctx).then((one) => (one.result && ctx.ended?.(one.result), one))));
    for (const one of done) {
      if (one.result) results.push(one.result);
      if (one.end) return one.end;
    }
  }
  return DONE;
}

/** The delegate calls from `start` on, up to the first other call. */
function delegateRun(blocks: ToolUseBlock[], start: number): ToolUseBlock[] {
  let end = start;
  while (end < blocks.length && blocks[end]!.name === DELEGATE) end++;
  return blocks.slice(start, end);
}

/** One call: its result, or how the batch ends there (a pause before it ran: no result). */
type CallEnd = { result?: ToolResultBlockParam; end?: Exclude<ToolRunEnd, { kind: 'done' }> };

async function runOne(block: ToolUseBlock, ctx: ToolRunContext): Promise<CallEnd> {
  const tool = ctx.tools.find((t) => t.name === block.name);
  if (!tool) {
    // A refused call is still a call the user should see: it gets a card with the refusal.
    const message = unknownToolMessage(block.name, ctx.tools);
    const result = errorResult(block.id, message);
    ctx.showCard({ ...unknownCard(block), status: 'error', result: message, errorKind: 'invalid_parameter' });
    return { result };
  }
  const approved = ctx.approved?.toolUseId === block.id ? ctx.approved : null;
  // Parsed once, here: every hook below gets this value; bad input is the call's error and no hook runs.
  const parsed = tool.parse(block.input);
  const shown = approved?.card ? { ...approved.card, status: 'running' as const } : startCard(block, tool, parsed.ok ? parsed.value : null);
  const card = tool.group === 'planning' ? null : shown;
  if (card) ctx.showCard(card);
  const unready = await waitForWorkspace(ctx, card);
  if (unready !== null) {
    if (card) ctx.showCard({ ...card, status: 'error', result: unready, errorKind: 'unknown' });
    return { result: errorResult(block.id, unready) };
  }
  const refused = approved ? null : ctx.refuse?.(tool);
  if (refused) {
    if (card) ctx.showCard({ ...card, status: 'denied', result: refused });
    return { result: errorResult(block.id, refused) };
  }
  // A call that cannot work (bad input, or its dry run says so) fails at once: nobody is asked to approve it.
  const early: ToolOutcome | null = parsed.ok ? await knownFailure(tool, parsed.value) : { ok: false, error: parsed.error };
  // The input the call runs with; null when it fails early.
  const input = !early && parsed.ok ? parsed.value : null;
  if (input) {
    const verdict = ctx.approve && !approved ? ctx.approve(block, tool, input, card) : { kind: 'go' as const };
    if (verdict.kind === 'paused') return { end: verdict };
    if (verdict.kind === 'refused') {
      if (card) ctx.showCard({ ...card, status: verdict.status, result: verdict.message });
      return { result: errorResult(block.id, verdict.message) };
    }
    await ctx.recovery.beforeExecute(block, tool);
  }
  const started = performance.now();
  const tracked = !input || !card ? null : ctx.track?.({ tool, summary: card.summary, toolUseId: block.id });
  const asked: { pause: Pause | null } = { pause: null };
  const { ask } = ctx;
  const askUser = ask ? (question: UserQuestion) => void (asked.pause = ask(block.id, question)) : null;
  const ran = input ? await execute(tool, input, block, ctx, askUser) : early!;
  // Stop cut a changing call off while it ran: nobody knows what it did, and Claude hears so.
  const cutOff = Boolean(input && card?.changes && ctx.signal.aborted && !ran.ok);
  const outcome: ToolOutcome = cutOff ? { ok: false, error: { kind: 'unknown', message: INTERRUPTED_EFFECT } } : ran;
  // The call asked the user (ask_user): the run ends here, and the answer becomes its result.
  if (asked.pause) return { end: { kind: 'paused', pause: asked.pause } };
  const durationMs = Math.round(performance.now() - started);
  tracked?.({ durationMs, ok: outcome.ok });
  const images = outcome.ok && outcome.images?.length ? await ctx.storeImages(tool.name, outcome.images) : NO_IMAGES;
  const text = outcome.ok ? [outcome.content, ...images.problems].join('\n') : outcome.error.message;
  if (card) {
    ctx.showCard({
      ...card,
      status: outcome.ok ? 'done' : 'error',
      result: text.length > CARD_RESULT_CHARS ? `${text.slice(0, CARD_RESULT_CHARS)}\n… (${text.length - CARD_RESULT_CHARS} more characters)` : text,
      ...(outcome.ok ? {} : { errorKind: outcome.error.kind }),
      ...(cutOff ? { interrupted: true } : {}),
      ...(images.attachments.length ? { images: images.attachments } : {}),
      durationMs,
    });
  }
  // Recovery (src/main/recovery) adds its hint to a failure, or escalates: the run ends, the call's result awaits the user.
  const recovered = await ctx.recovery.afterExecute({ block, tool, outcome, durationMs });
  if (recovered.escalation) return { end: { kind: 'paused', pause: escalationPause(recovered.escalation) } };
  // Images go to Claude as image blocks in the result (referenced here, filled in when the request is sent).
  const content = images.attachments.length ? [{ type: 'text' as const, text: recovered.text }, ...images.attachments.map(attachmentBlock)] : recovered.text;
  const result = outcome.ok ? ({ type: 'tool_result', tool_use_id: block.id, content } as ToolResultBlockParam) : errorResult(block.id, recovered.text);
  return recovered.halt ? { result, end: { kind: 'halted' } } : { result };
}

/**
 * Before a call touches the workspace (its precheck, checkpoint or run): a worktree still being
 * checked out is waited for, with the card saying so. Why the call cannot run, or null.
 */
async function waitForWorkspace(ctx: ToolRunContext, card: ToolCallItem | null): Promise<string | null> {
  const ready = ctx.workspaceReady?.();
  if (!ready) return null;
  if (card) ctx.showCard({ ...card, result: PREPARING_WORKTREE });
  let onAbort = (): void => undefined;
  const stopped = new Promise<string>((resolve) => {
    onAbort = () => resolve(STOPPED);
    if (ctx.signal.aborted) onAbort();
    else ctx.signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    const why = await Promise.race([ready, stopped]);
    if (why === null && card) ctx.showCard(card);
    return why;
  } finally {
    ctx.signal.removeEventListener('abort', onAbort);
  }
}

/** A step that keeps failing, as the chat's awaiting state: the user decides (escalation-kind.ts). */
function escalationPause(request: EscalationRequest): Pause {
  const { sessionId } = request;
  return {
    events: [
      { type: 'run_state', sessionId, state: { status: 'awaiting_escalation', requestId: request.id } },
      { type: 'escalation_requested', sessionId, request },
    ],
  };
}

const NO_IMAGES = { attachments: [] as Attachment[], problems: [] as string[] };

function errorResult(toolUseId: string, message: string): ToolResultBlockParam {
  return { type: 'tool_result', tool_use_id: toolUseId, content: message, is_error: true };
}

/** The workspace tools' names (tools/workspace): asked for in a chat without a folder, they get a reason, not just "unknown". */
const WORKSPACE_TOOL_NAMES = new Set(['read_file', 'write_file', 'edit_file', 'list_directory', 'search_files', 'run_command']);

function unknownToolMessage(name: string, tools: readonly ToolDefinition[]): string {
  const names = tools.map((t) => t.name).join(', ') || 'none';
  if (WORKSPACE_TOOL_NAMES.has(name) && !tools.some((t) => t.group === 'workspace')) {
    return `Unknown tool "${name}": this chat has no workspace folder, so no file or command tools. Ask the user to choose one with the Workspace button in the chat header. The tools available are: ${names}.`;
  }
  return `Unknown tool "${name}". The tools available are: ${names}.`;
}

function unknownCard(block: ToolUseBlock): ToolCallItem {
  return { id: newItemId(), createdAt: nowIso(), kind: 'tool_call', toolUseId: block.id, name: block.name, summary: block.name, input: block.input, status: 'running' };
}

function startCard(block: ToolUseBlock, tool: ToolDefinition, input: ParsedInput | null): ToolCallItem {
  let summary: string;
  try {
    summary = input ? tool.summarize(input) : tool.label;
  } catch {
    summary = tool.name;
  }
  return {
    id: newItemId(),
    createdAt: nowIso(),
    kind: 'tool_call',
    toolUseId: block.id,
    name: tool.name,
    ...(tool.server ? { server: tool.server } : {}),
    summary,
    input: block.input,
    status: 'running',
    ...(changesThings(tool) ? { changes: true } : {}),
  };
}

/** A tool whose call, cut off, leaves its effect unknown (docs/architecture.md "Interrupted side effects"). */
function changesThings(tool: ToolDefinition): boolean {
  return (tool.group === 'workspace' || tool.group === 'mcp') && !tool.readOnly && !tool.idempotent;
}

/** Runs the tool, turning a throw into an error outcome and a Stop into an immediate return. */
async function execute(tool: ToolDefinition, input: ParsedInput, block: ToolUseBlock, ctx: ToolRunContext, askUser: ((question: UserQuestion) => void) | null): Promise<ToolOutcome> {
  const stoppedOutcome = (): ToolOutcome => ({ ok: false, error: { kind: 'unknown', message: STOPPED } });
  let onAbort = (): void => undefined;
  const stopped = new Promise<ToolOutcome>((resolve) => {
    if (ctx.signal.aborted) resolve(stoppedOutcome());
    // A tool that answers Stop itself does so within this turn of the event loop and wins; one
    // that ignores it is cut off right after.
    onAbort = () => setTimeout(() => resolve(stoppedOutcome()), 0);
    ctx.signal.addEventListener('abort', onAbort, { once: true });
  });
  const run = (async (): Promise<ToolOutcome> => {
    try {
      return await tool.execute(input, {
        sessionId: ctx.sessionId,
        toolUseId: block.id,
        signal: ctx.signal,
        settings: ctx.settings,
        ...(askUser ? { askUser } : {}),
      });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      return { ok: false, error: { kind: 'unknown', message: `Tool "${tool.name}" failed unexpectedly: ${message}` } };
    }
  })();
  // A tool that ignores its signal must not hold the Stop button hostage.
  try {
    return await Promise.race([run, stopped]);
  } finally {
    // The run's signal lives for every turn of the run: one listener a call would pile up.
    ctx.signal.removeEventListener('abort', onAbort);
  }
}
