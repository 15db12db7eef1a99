import { noticeItem } from '../../common/transcript-items';
import { redactKey } from '../model/api-error-map';
import { runConversation, type RunContext, type RunEnding } from './run-loop';

/**
 * Runs one chat's conversation (or another piece of run work, such as "Compact now") to its end.
 * Never throws: a bug in the loop still ends the run with a notice, and the key is kept out of
 * the log.
 */
export async function runChat(ctx: RunContext, work: (ctx: RunContext) => Promise<RunEnding | void> = runConversation): Promise<RunEnding | void> {
  try {
    return await work(ctx);
  } catch (error) {
    const detail = redactKey(error instanceof Error ? (error.stack ?? error.message) : String(error), ctx.apiKey);
    console.error(`[waypoint] chat run failed: ${detail}`);
    ctx.publish({
      type: 'transcript_item',
      sessionId: ctx.session.summary.id,
      item: noticeItem('error', 'Waypoint hit an internal error while talking to Claude. Details are in the log; send again to retry.', 'internal'),
    });
  }
}
