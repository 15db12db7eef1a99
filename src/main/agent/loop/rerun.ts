import type { ContentBlockParam } from '@anthropic-ai/sdk/resources/messages';
import { MessageText, describeZodError, type CallOutput } from '../../../shared/contract';
import type { Plan } from '../../../shared/plan';
import type { HistoryMark, RerunItem, UserItem } from '../../../shared/transcript';
import { UserFacingError } from '../../common/errors';
import { newItemId, noticeItem, nowIso } from '../../common/transcript-items';
import type { PlanServiceApi } from '../../plan/plan-service.types';
import type { ChatRegistry } from '../../chats/chat-registry';
import { titleFrom, type ChatSession } from '../../chats/chat-session';
import { forkChat } from '../../chats/fork-chat';
import { locateUserMessages, nextUserMark, userBlocksAt } from '../../chats/history-cut';
import type { LoopRecovery } from '../ports';
import type { RunController } from './run-controller';

export interface RerunDeps {
  chats: ChatRegistry;
  runs: RunController;
  plans: PlanServiceApi;
  recovery: LoopRecovery;
  /** Refuses while a question waits for the user (its tool call holds the history open). */
  refuseWhileAsked(session: ChatSession): void;
  /** A chat was copied: its log is written whole before any other event of it. */
  forked(copyId: string): void;
}

type Preview = CallOutput<'previewRerun'>;
type Replacement = { how: 'edit' | 'retry'; text?: string; restoreFiles: boolean };

const NOT_THERE = 'That message is not in this chat any more. Reload the chat and try again.';

/**
 * Edit message and Retry reply (docs/contract.md §5): the chat goes on from a user message again. What
 * it replaces is kept, never lost: the chat as it was becomes a new chat ("… (earlier version)")
 * with its transcript, history, plan and the plan's file checkpoints. A plan made in the replaced
 * turns is dropped here. The files Claude's tools changed in the replaced turns, in a plan or not,
 * are put back first when the user asks (recovery/turn-checkpoints.ts); commands are only counted.
 * The cut is one event (chat_rewound), so the log replays it and every window shows it.
 */
export class Reruns {
  constructor(private readonly deps: RerunDeps) {}

  /** The files the turns from this message on changed (what putting them back would do), and how many commands they ran. */
  async preview(sessionId: string, itemId: string): Promise<Preview> {
    const session = this.deps.chats.require(sessionId);
    const { index } = this.userMessage(session, itemId);
    return this.deps.recovery.previewTurns(sessionId, session.summary.workspace ?? null, turnsFrom(session, index));
  }

  /** "Save and rerun": the chat goes on from the edited message; what it replaced becomes an earlier version. */
  edit(sessionId: string, itemId: string, text: string, restoreFiles = false): Promise<{ itemId: string; earlierChatId: string }> {
    const parsed = MessageText.safeParse(text);
    if (!parsed.success) throw new UserFacingError('invalid_input', describeZodError(parsed.error));
    return this.rerun(sessionId, itemId, { how: 'edit', text, restoreFiles });
  }

  /** Asks again with the last user message, as it was sent (its attachments too). */
  retry(sessionId: string, restoreFiles = false): Promise<{ itemId: string; earlierChatId: string }> {
    const session = this.deps.chats.require(sessionId);
    this.refuseWhileRunning(sessionId, 'retry the reply');
    const last = this.lastUserIndex(session);
    let replied = false;
    for (let i = last + 1; i < session.itemCount && !replied; i++) replied = session.kindAt(i) === 'assistant' || session.kindAt(i) === 'tool_call';
    if (last < 0 || !replied) {
      throw new UserFacingError('invalid_input', 'There is no reply to retry yet: send a message first.');
    }
    return this.rerun(sessionId, session.idAt(last)!, { how: 'retry', restoreFiles });
  }

  /** Kinds and ids only: nothing is read from the chat's log. -1 when there is no user message. */
  private lastUserIndex(session: ChatSession): number {
    let last = session.itemCount - 1;
    while (last >= 0 && session.kindAt(last) !== 'user') last--;
    return last;
  }

  private async rerun(sessionId: string, itemId: string, replacement: Replacement) {
    const { chats, runs, plans, recovery } = this.deps;
    const session = chats.require(sessionId);
    this.refuseWhileRunning(sessionId, replacement.how === 'edit' ? 'edit a message' : 'retry the reply');
    const apiKey = runs.readyToRun(session);
    this.deps.refuseWhileAsked(session);
    const { item, index, mark, next, first } = this.userMessage(session, itemId);
    const plan = this.planMadeFrom(session, index);

    const release = runs.reserve(sessionId);
    let copy: ChatSession;
    let files: { restored: string[]; changed: string[] };
    let fileProblem: string | null = null;
    try {
      copy = forkChat(session, chats.newItems());
      chats.adopt(copy);
      if (session.plan) plans.restore(copy.summary.id, session.plan);
      // Without its checkpoints the copy still holds everything else: a disk problem here never blocks the rerun.
      await recovery.copyCheckpoints(sessionId, copy.summary.id).catch((error: unknown) => {
        console.warn(`[waypoint] could not copy the checkpoints of chat ${sessionId}: ${(error as Error).message}`);
      });
      this.deps.forked(copy.summary.id);
      chats.publish(copy, { type: 'session_updated', session: copy.summary });
      files = await this.filesOf(session, index, replacement.restoreFiles ? copy : null, plan).catch((error: unknown) => {
        const then = plan ? '"Undo plan" in the earlier version can try again.' : 'they are as the replaced turns left them.';
        fileProblem = `The files the replaced turns changed could not be put back (${(error as Error).message}); ${then}`;
        return { restored: [], changed: [] };
      });
    } finally {
      release();
    }
    // Deleted meanwhile (another window): nothing more to do in it.
    if (chats.get(sessionId) !== session) throw new UserFacingError('not_found', NOT_THERE);

    const blocks = userBlocksAt(session.history, mark, next);
    session.cutHistory(mark);
    // Defensive: a cut never leaves a tool call unanswered, but a history that did would be refused.
    session.closeOpenToolUses('Not run: the user edited an earlier message.');
    if (plan) plans.drop(sessionId);
    chats.publish(session, { type: 'chat_rewound', sessionId, fromItemId: itemId, planDropped: !!plan });
    const marker: RerunItem = {
      id: newItemId(),
      createdAt: nowIso(),
      kind: 'rerun',
      how: replacement.how,
      earlier: { chatId: copy.summary.id, title: copy.summary.title },
      ...(files.restored.length ? { restored: files.restored } : {}),
      ...(files.changed.length ? { changed: files.changed } : {}),
    };
    chats.publish(session, { type: 'transcript_item', sessionId, item: marker });
    if (fileProblem) chats.publish(session, { type: 'transcript_item', sessionId, item: noticeItem('warning', fileProblem, 'rerun_files') });

    const text = replacement.text ?? item.text;
    // The message keeps what it carried besides its text (attachments); an edit replaces the text.
    const content: ContentBlockParam[] =
      replacement.how === 'edit' ? [...blocks.filter((b) => b.type !== 'text'), { type: 'text', text }] : blocks.length ? blocks : [{ type: 'text', text }];
    const historyAt = nextUserMark(session.history);
    session.appendUser(content);
    const sent: UserItem = { ...structuredClone(item), id: newItemId(), createdAt: nowIso(), text, historyAt };
    chats.publish(session, { type: 'transcript_item', sessionId, item: sent });
    // A title that was the first message follows its edit; one the user gave stays.
    const retitle = first && text !== item.text && session.summary.title === titleFrom(item.text);
    chats.touch(session, retitle ? titleFrom(text) : undefined);
    recovery.resetChat(sessionId);
    runs.start(session, apiKey);
    return { itemId: sent.id, earlierChatId: copy.summary.id };
  }

  private refuseWhileRunning(sessionId: string, what: string): void {
    if (this.deps.runs.isRunning(sessionId)) throw new UserFacingError('busy', `Claude is working in this chat: press Stop first, then ${what}.`);
  }

  /** The user message, its place in the transcript and in the history (and the next one's). */
  private userMessage(session: ChatSession, itemId: string): { item: UserItem; index: number; first: boolean; mark: HistoryMark; next?: HistoryMark } {
    const index = session.indexOf(itemId);
    const item = session.item(itemId);
    if (!item || item.kind !== 'user') throw new UserFacingError('not_found', NOT_THERE);
    const users = session.itemsOfKind('user');
    const marks = locateUserMessages(session.history, users);
    const mark = marks.get(itemId);
    if (!mark) {
      throw new UserFacingError('invalid_input', 'This message cannot be edited: its place in what was sent to Claude is not known (an older chat). Send it again as a new message instead.');
    }
    const after = users[users.findIndex((u) => u.id === itemId) + 1];
    const next = after ? marks.get(after.id) : undefined;
    return { item, index, first: users[0]?.id === itemId, mark, ...(next ? { next } : {}) };
  }

  /** The chat's plan when it was made at or after transcript position `index` (it goes with the replaced turns). */
  private planMadeFrom(session: ChatSession, index: number): Plan | null {
    const plan = this.deps.plans.getPlan(session.summary.id);
    if (!plan) return null;
    // Plan lines are found by their ids (no read); only the message at `index` is looked at.
    let first = 0;
    while (first < session.itemCount && !session.idAt(first)!.startsWith(`plan:${plan.id}:`)) first++;
    if (first < session.itemCount) return first > index ? plan : null;
    return plan.createdAt >= (session.itemsBetween(index, index + 1)[0]?.createdAt ?? '') ? plan : null;
  }

  /**
   * The files the turns from `index` on changed: put back now when the user asked (`copy`, the chat
   * as it was, then has its plan from those turns marked undone), or only named.
   */
  private async filesOf(session: ChatSession, index: number, copy: ChatSession | null, plan: Plan | null): Promise<{ restored: string[]; changed: string[] }> {
    const { recovery } = this.deps;
    const id = session.summary.id;
    const workspace = session.summary.workspace ?? null;
    const turns = turnsFrom(session, index);
    const { files } = await recovery.previewTurns(id, workspace, turns);
    if (!copy || files.length === 0) return { restored: [], changed: files.map((f) => f.path) };
    // Files changed outside Waypoint since are left alone, as Undo plan leaves them.
    const result = await recovery.restoreTurns(id, workspace, turns);
    if (plan) this.deps.plans.markUndone(copy.summary.id, result);
    return { restored: [...result.restored, ...result.deleted].sort(), changed: result.skipped };
  }
}

/** The user messages from transcript position `index` on: the turns a rerun from there replaces (kinds and ids only, no read). */
function turnsFrom(session: ChatSession, index: number): string[] {
  const turns: string[] = [];
  for (let i = Math.max(0, index); i < session.itemCount; i++) if (session.kindAt(i) === 'user') turns.push(session.idAt(i)!);
  return turns;
}
