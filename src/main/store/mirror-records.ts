import { pagedItemsOf } from './paging/paged-items';
import type { WaypointEvent } from '../../shared/contract';
import type { ChatSession } from '../chats/chat-session';
import type { KeptVersion } from '../chats/chat-versions';
import type { LineSpan } from './log-reader';
import type { LogRecord } from './log-records';
import { apiHistoryProblem } from '../chats/api-history';
import { historyChangeProblem } from '../chats/history-change';

/** What following a log changes besides the chat itself: the follower's own bookkeeping. */
export interface MirrorTarget {
  session: ChatSession;
  /** Announces an event as if this process had fired it (the chat's state applies it first). */
  emit(event: WaypointEvent): void;
  /** The plan service takes the newer plan without an event of its own. */
  restorePlan(plan: NonNullable<ChatSession['plan']>): void;
  /** A rewind dropped the chat's plan (it was made in the turns the rewind cut, or another version is shown). */
  dropPlan(): void;
  summaryLogged(json: string): void;
  runStatus(status: string): void;
  /** A record could not apply, or made the history one the API refuses (the log was changed outside its writer). */
  unfit(problem: string): void;
}

/**
 * Records another process appended to a chat's log, applied as the events this process's
 * services would have fired for them: the window updates as if the work happened here. Nothing
 * is logged again (the caller keeps its own writer out of it).
 */
export function mirrorRecords(records: readonly LogRecord[], spans: readonly LineSpan[], target: MirrorTarget): void {
  const { session, emit } = target;
  const sessionId = session.summary.id;
  for (const [index, record] of records.entries()) {
    const span = spans[index];
    switch (record.type) {
      case 'created':
      case 'usage':
        break;
      case 'summary':
        target.summaryLogged(JSON.stringify(record.session));
        emit({ type: 'session_updated', session: record.session });
        break;
      case 'item':
        emit({ type: 'transcript_item', sessionId, item: record.item });
        // It is in the log already: the chat may let it leave memory and read it back from there.
        if (span) pagedItemsOf(session)?.logged(record.item.id, 'item', span);
        break;
      case 'text':
        emit({ type: 'message_delta', sessionId, itemId: record.itemId, text: record.text });
        if (span) pagedItemsOf(session)?.logged(record.itemId, 'text', span);
        break;
      case 'history': {
        // Validated like replay's: a change that does not fit the history held is never applied.
        let problem = historyChangeProblem(session.history, record);
        if (problem) {
          target.unfit(`the history record with seq ${record.seq} does not fit the chat (${problem})`);
          break;
        }
        session.applyLoggedHistory(record);
        // Fits, but says something the API would refuse (a hand-made line): the chat must not send it.
        problem = apiHistoryProblem(session.history);
        if (problem) target.unfit(`its history is not one Claude accepts after the record with seq ${record.seq} (${problem})`);
        break;
      }
      case 'plan':
        // Versions only move forward, as in replay.ts.
        if (session.plan && session.plan.id === record.plan.id && record.version <= session.plan.version) break;
        target.restorePlan(record.plan);
        if (record.change) {
          emit({ type: 'plan_updated', sessionId, plan: record.plan, change: record.change });
          // The chat derived its progress from the plan, as a reader of the log does (replay.ts).
          target.summaryLogged(JSON.stringify(session.summary));
        } else session.plan = record.plan;
        break;
      case 'run':
        target.runStatus(record.state.status);
        emit({ type: 'run_state', sessionId, state: record.state });
        break;
      case 'prompt':
        emit(record.event as unknown as WaypointEvent);
        break;
      case 'subagent':
        emit({ type: 'subagent_updated', sessionId, subagent: record.agent });
        break;
      case 'subagent_waiting':
        emit({ type: 'subagent_waiting', sessionId, waiting: record.waiting });
        break;
      case 'subagent_line':
        emit({ type: 'subagent_line', sessionId, agentId: record.agentId, line: record.line });
        break;
      case 'version': {
        // Another process kept a version beside the one it shows: this process can show it too.
        const { seq: _seq, t: _t, type: _type, ...kept } = record;
        session.keepVersion(kept as KeptVersion, 'log');
        break;
      }
      case 'rewind':
        // An edited message or a retried reply in the writing process: the cut shows here too.
        if (record.planDropped) target.dropPlan();
        emit({ type: 'chat_rewound', sessionId, fromItemId: record.itemId, planDropped: record.planDropped });
        break;
    }
  }
}
