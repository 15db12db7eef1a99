import type { RunState } from '../../../shared/transcript';
import { noticeItem } from '../../common/transcript-items';
import { describeFailure } from '../model/api-error-map';
import { compactNow } from './context-fit';
import { buildRequest, toolsForTurn } from '../model/request-builder';
import { contextDeps, projectFor, type RunContext } from '../loop/run-loop';

/**
 * "Compact now": Claude summarises everything before the latest user turn, as it would before a
 * request that would not fit, but at the user's word. Runs as the chat's run (Stop ends it).
 */
export async function runCompaction(ctx: RunContext): Promise<void> {
  const sessionId = ctx.session.summary.id;
  const settings = ctx.settings();
  const dialect = ctx.plans.dialectFor(sessionId, settings.planningStyle);
  const project = await projectFor(ctx, settings);
  const tools = toolsForTurn(settings, dialect, ctx.plans, ctx.registry, project.tools);
  const limits = await ctx.limitsFor(settings.model);
  const base = buildRequest({ settings, dialect, plans: ctx.plans, tools, workspace: ctx.workspace, history: ctx.session.history, maxOutputTokens: limits.maxOutputTokens, projectPrompt: project.prompt });
  const setState = (state: RunState) => ctx.publish({ type: 'run_state', sessionId, state });
  const outcome = await compactNow(base, contextDeps(ctx, limits, setState));
  if (outcome.kind === 'failed') {
    const failure = describeFailure(outcome.error, ctx.apiKey, outcome.retries);
    ctx.publish({ type: 'transcript_item', sessionId, item: noticeItem('error', `Compacting this chat failed; nothing changed. ${failure.text.replace(/ Your message is kept:.*$/, '')} Press "Compact now" to try again.`, 'compaction_failed') });
  } else if (outcome.kind === 'nothing') {
    ctx.publish({ type: 'transcript_item', sessionId, item: noticeItem('info', 'Nothing to compact yet: only the latest turn is sent in full, and it always is.', 'compaction_nothing') });
  }
}
