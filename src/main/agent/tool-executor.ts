import type { ToolResultBlockParam, ToolUseBlock } from '@anthropic-ai/sdk/resources/messages';
import type { Settings } from '../../shared/settings';
import type { ToolCallItem } from '../../shared/transcript';
import type { ApprovalCheck } from './approval-step';
import type { ToolRecoveryHooks } from '../recovery/recovery-types';
import type { ToolDefinition, ToolOutcome } from './tool';
import { newItemId, nowIso } from './transcript-items';

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
  /** The approval gate (approval-step.ts): risky calls wait for the user's answer. */
  approve?: ApprovalCheck;
  /** Checkpoints, recovery hints and escalation (src/main/recovery); absent in tests of other parts. */
  recovery?: ToolRecoveryHooks;
}

/** 'halted': the user aborted the plan during an escalation; the remaining tool_uses did not run. */
export type ToolRunEnd = 'done' | 'halted';

const STOPPED = 'Stopped by the user before this tool finished.';

/**
 * Runs the tool_use blocks of one assistant turn in order and returns exactly one tool_result
 * per block (appended to `results` as they finish, so a Stop keeps the finished ones). Never
 * throws: unknown tools and throwing tools become is_error results Claude can act on.
 */
export async function runToolUses(blocks: ToolUseBlock[], ctx: ToolRunContext, results: ToolResultBlockParam[]): Promise<ToolRunEnd> {
  for (const block of blocks) {
    if (ctx.signal.aborted) return 'done';
    const tool = ctx.tools.find((t) => t.name === block.name);
    if (!tool) {
      const names = ctx.tools.map((t) => t.name).join(', ') || 'none';
      results.push(errorResult(block.id, `Unknown tool "${block.name}". The tools available are: ${names}.`));
      continue;
    }
    const card = tool.group === 'planning' ? null : startCard(block, tool);
    if (card) ctx.showCard(card);
    const verdict = ctx.approve ? await ctx.approve(block, tool, card) : { kind: 'go' as const };
    if (verdict.kind === 'refused') {
      results.push(errorResult(block.id, verdict.message));
      if (card) ctx.showCard({ ...card, status: verdict.status, result: verdict.message });
      continue;
    }
    await ctx.recovery?.beforeExecute(block, tool);
    const started = performance.now();
    const outcome = await execute(tool, block.input, ctx);
    const durationMs = Math.round(performance.now() - started);
    const text = outcome.ok ? outcome.content : outcome.error.message;
    if (card) {
      ctx.showCard({
        ...card,
        status: outcome.ok ? 'done' : 'error',
        result: text.length > CARD_RESULT_CHARS ? `${text.slice(0, CARD_RESULT_CHARS)}\n… (${text.length - CARD_RESULT_CHARS} more characters)` : text,
        ...(outcome.ok ? {} : { errorKind: outcome.error.kind }),
        durationMs,
      });
    }
    // Recovery (src/main/recovery) adds its hint to a failure, and may pause on an escalation.
    const recovered = ctx.recovery ? await ctx.recovery.afterExecute({ block, tool, outcome, durationMs }) : { text, halt: false };
    results.push(outcome.ok ? { type: 'tool_result', tool_use_id: block.id, content: recovered.text } : errorResult(block.id, recovered.text));
    if (recovered.halt) return 'halted';
  }
  return 'done';
}

function errorResult(toolUseId: string, message: string): ToolResultBlockParam {
  return { type: 'tool_result', tool_use_id: toolUseId, content: message, is_error: true };
}

function startCard(block: ToolUseBlock, tool: ToolDefinition): ToolCallItem {
  let summary: string;
  try {
    summary = tool.summarize(block.input);
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
  };
}

/** Runs the tool, turning a throw into an error outcome and a Stop into an immediate return. */
async function execute(tool: ToolDefinition, input: unknown, ctx: ToolRunContext): Promise<ToolOutcome> {
  const stopped = new Promise<ToolOutcome>((resolve) => {
    if (ctx.signal.aborted) resolve({ ok: false, error: { kind: 'unknown', message: STOPPED } });
    ctx.signal.addEventListener('abort', () => resolve({ ok: false, error: { kind: 'unknown', message: STOPPED } }), { once: true });
  });
  const run = (async (): Promise<ToolOutcome> => {
    try {
      return await tool.execute(input, { sessionId: ctx.sessionId, signal: ctx.signal, settings: ctx.settings });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      return { ok: false, error: { kind: 'unknown', message: `Tool "${tool.name}" failed unexpectedly: ${message}` } };
    }
  })();
  // A tool that ignores its signal must not hold the Stop button hostage.
  return Promise.race([run, stopped]);
}
