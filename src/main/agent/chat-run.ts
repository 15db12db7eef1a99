import Anthropic from '@anthropic-ai/sdk';
import type { WaypointEvent } from '../../shared/contract';
import type { SettingsSource } from '../app/ports';
import type { PlanServiceApi } from '../plan/plan-service.types';
import type { RecoveryService } from '../recovery/recovery-service';
import { redactKey } from './api-error-map';
import type { ApiRetryPolicy } from './api-retry-policy';
import type { ApprovalGate } from './approval-gate';
import type { DeltaBatcher } from './delta-batcher';
import { runConversation } from './run-loop';
import type { ChatSession } from './session-state';
import type { ToolRegistry } from './tool-registry';
import { noticeItem } from './transcript-items';
import { meterRequest, stepInProgress, usageOf, type UsageRecord } from './usage-meter';

/** What one chat run needs from the service that owns the chats. */
export interface ChatRunContext {
  settings: SettingsSource;
  plans: PlanServiceApi;
  baseURL?: string;
  registry: ToolRegistry;
  sdkMaxRetries: number;
  stallTimeoutMs: number;
  retryPolicy: ApiRetryPolicy;
  approvals: ApprovalGate;
  recovery?: RecoveryService;
  batcher: DeltaBatcher;
  publish(event: WaypointEvent): void;
  onUsage(record: UsageRecord): void;
}

/**
 * Runs one chat's conversation to its end. Never throws: a bug in the loop still ends the run
 * with a notice, and the key is kept out of the log.
 */
export async function runChat(ctx: ChatRunContext, session: ChatSession, apiKey: string, signal: AbortSignal): Promise<void> {
  const sessionId = session.summary.id;
  try {
    // A fresh client per run, so a key changed in Settings applies to the next message.
    const client = new Anthropic({ apiKey, baseURL: ctx.baseURL, maxRetries: ctx.sdkMaxRetries, timeout: ctx.stallTimeoutMs });
    await runConversation({
      session,
      client,
      apiKey,
      settings: () => ctx.settings.get(),
      plans: ctx.plans,
      registry: ctx.registry,
      workspace: session.summary.workspace ?? null,
      stallTimeoutMs: ctx.stallTimeoutMs,
      retryPolicy: ctx.retryPolicy,
      signal,
      approvals: ctx.approvals,
      recovery: ctx.recovery,
      onUsage: (usage, model) => {
        const record: UsageRecord = { sessionId, model, usage: usageOf(model, usage), step: stepInProgress(ctx.plans.getPlan(sessionId)) };
        ctx.onUsage(record);
        ctx.publish({ type: 'session_updated', session: meterRequest(session.summary, record) });
      },
      publish: ctx.publish,
      pushDelta: (itemId, text) => ctx.batcher.push(itemId, text),
      flushDeltas: () => ctx.batcher.flush(),
    });
  } catch (error) {
    const detail = redactKey(error instanceof Error ? (error.stack ?? error.message) : String(error), apiKey);
    console.error(`[waypoint] chat run failed: ${detail}`);
    ctx.publish({
      type: 'transcript_item',
      sessionId,
      item: noticeItem('error', 'Waypoint hit an internal error while talking to Claude. Details are in the log; send again to retry.', 'internal'),
    });
  }
}
