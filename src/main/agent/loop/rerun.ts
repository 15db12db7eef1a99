import type { ContentBlockParam } from '@anthropic-ai/sdk/resources/messages';
import { MessageText, describeZodError, type CallOutput } from '../../../shared/contract';
import type { Plan } from '../../../shared/plan';
import type { HistoryMark, RerunItem, UserItem, VersionTag } from '../../../shared/transcript';
import { UserFacingError } from '../../common/errors';
import { newItemId, noticeItem, nowIso } from '../../common/transcript-items';
import type { PlanServiceApi } from '../../plan/plan-service.types';
import type { ChatRegistry } from '../../chats/chat-registry';
import { titleFrom, type ChatSession } from '../../chats/chat-session';
import { tagOf, withTag, type KeptVersion, type VersionsOf } from '../../chats/chat-versions';
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
  /**
   * Whether the chat waits in "Runs at once"'s queue (queued-runs.ts): a rerun then would start a
   * run outside the queue, and the queue would start the chat again when its turn came.
   */
  isQueued(sessionId: string): boolean;
}

type Preview = CallOutput<'previewRerun'>;
type Replacement = { how: 'edit' | 'retry'; text?: string; restoreFiles: boolean };

const NOT_THERE = 'That message is not in this chat any more. Reload the chat and try again.';

/**
 * Edit message and Retry reply (docs/contract.md §5): the chat goes on from a user message again,
 * as a new version in place. What it replaces is kept, never lost: it stays a version of the
 * message (or of its reply), with its transcript, history and plan (chats/chat-versions.ts), and
 * "Previous version" / "Next version" show it again (`show`). A plan made in the replaced turns
 * leaves the shown version. The files Claude's tools changed in the replaced turns, in a plan or
 * not, are put back first when the user asks (recovery/turn-checkpoints.ts), before the replaced
 * version is kept; commands are only counted. Each step is an event (a version kept, the history,
 * chat_rewound, the items), so the log replays it and every window shows it.
 */
export class Reruns {
  constructor(private readonly deps: RerunDeps) {}

  /** The files the turns from this message on changed (what putting them back would do), and how many commands they ran. */
  async preview(sessionId: string, itemId: string): Promise<Preview> {
    const session = this.deps.chats.require(sessionId);
    const { index } = this.userMessage(session, itemId);
    return this.deps.recovery.previewTurns(sessionId, session.summary.workspace ?? null, turnsFrom(session, index));
  }

  /** "Save and rerun": the chat goes on from the edited message, a new version of it. */
  edit(sessionId: string, itemId: string, text: string, restoreFiles = false): Promise<{ itemId: string }> {
    const parsed = MessageText.safeParse(text);
    if (!parsed.success) throw new UserFacingError('invalid_input', describeZodError(parsed.error));
    return this.rerun(sessionId, itemId, { how: 'edit', text, restoreFiles });
  }

  /** Asks again with the last user message, as it was sent (its attachments too): a new version of its reply. */
  retry(sessionId: string, restoreFiles = false): Promise<{ itemId: string }> {
    const session = this.deps.chats.require(sessionId);
    this.refuseWhileRunning(sessionId, 'retry the reply');
    this.refuseWhileQueued(sessionId, 'retry the reply');
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

  /**
   * "Previous version" / "Next version": the chat shows version `index` of the message (or of its
   * reply) instead of the one it shows, which is kept. Refused while Claude works or asks: the run
   * goes on in the version it started in.
   */
  show(sessionId: string, itemId: string, of: VersionsOf, index: number): { itemId: string } {
    const { chats, plans } = this.deps;
    const session = chats.require(sessionId);
    if (session.summary.damaged) throw new UserFacingError('invalid_input', `This chat's log is damaged (${session.summary.damaged}), so it opens read-only: its versions cannot be switched.`);
    this.refuseWhileRunning(sessionId, 'switch versions');
    this.refuseWhileQueued(sessionId, 'switch versions');
    this.deps.refuseWhileAsked(session);
    const item = session.item(itemId);
    if (!item || item.kind !== 'user') throw new UserFacingError('not_found', NOT_THERE);
    const tag = tagOf(item, of);
    const what = of === 'message' ? 'This message' : 'The reply to this message';
    if (index >= tag.count) {
      throw new UserFacingError('invalid_input', `${what} has ${tag.count === 1 ? 'only one version' : `${tag.count} versions`}: there is no version ${index + 1}.`);
    }
    const start = this.startOf(session, item, of);
    if (index === tag.index) return { itemId: session.idAt(start) ?? itemId };
    const target = session.keptVersion(tag.group, index);
    if (!target) throw new UserFacingError('not_found', `Version ${index + 1} of ${what.toLowerCase()} is not in this chat's log any more; the version shown stays.`);

    const release = this.deps.runs.reserve(sessionId);
    try {
      this.keepShown(session, item, of, tag, target.from, true);
      session.replaceHistoryFrom(target.from, target.history);
      const shownPlan = plans.getPlan(sessionId);
      if (shownPlan) plans.drop(sessionId);
      chats.publish(session, { type: 'chat_rewound', sessionId, fromItemId: session.idAt(start)!, planDropped: !!shownPlan });
      const shown: VersionTag = { ...tag, index };
      const items = target.items.map((kept, i) => (of === 'message' && i === 0 && kept.kind === 'user' ? withTag(kept, of, shown) : kept));
      if (of === 'reply') chats.publish(session, { type: 'transcript_item', sessionId, item: withTag(item, of, shown) });
      for (const kept of items) chats.publish(session, { type: 'transcript_item', sessionId, item: structuredClone(kept) });
      if (target.plan) {
        plans.restore(sessionId, target.plan);
        chats.publish(session, { type: 'plan_updated', sessionId, plan: target.plan, change: { kind: 'version', by: 'user', summary: `Version ${index + 1} of ${tag.count} shown.` } });
      }
      // A title that was the first message follows the version shown; one the user gave stays.
      const first = items[0];
      const retitle = of === 'message' && first?.kind === 'user' && session.itemsOfKind('user')[0]?.id === first.id && session.summary.title === titleFrom(item.text);
      // Showing a version is not new activity: the chat keeps its place in the list (the summary is
      // still published, so its plan progress and title are logged as shown).
      chats.publish(session, { type: 'session_updated', session: { ...session.summary, ...(retitle ? { title: titleFrom(first.text) } : {}) } });
      return { itemId: session.idAt(start) ?? itemId };
    } finally {
      release();
    }
  }

  private async rerun(sessionId: string, itemId: string, replacement: Replacement) {
    const { chats, runs, plans, recovery } = this.deps;
    const session = chats.require(sessionId);
    this.refuseWhileRunning(sessionId, replacement.how === 'edit' ? 'edit a message' : 'retry the reply');
    this.refuseWhileQueued(sessionId, replacement.how === 'edit' ? 'edit the message' : 'retry the reply');
    const apiKey = runs.readyToRun(session);
    this.deps.refuseWhileAsked(session);
    const { item, index, mark, next, first } = this.userMessage(session, itemId);
    const of: VersionsOf = replacement.how === 'edit' ? 'message' : 'reply';
    const start = of === 'message' ? index : index + 1;
    const plan = this.planMadeFrom(session, start);

    const release = runs.reserve(sessionId);
    let files: { restored: string[]; changed: string[] };
    let fileProblem: string | null = null;
    try {
      // The turns replaced are those from the message on, its own included (an edit or a retry replaces its answer).
      files = await this.filesOf(session, index, replacement.restoreFiles, plan).catch((error: unknown) => {
        const then = plan ? '"Undo plan" in the replaced version can try again.' : 'they are as the replaced turns left them.';
        fileProblem = `The files the replaced turns changed could not be put back (${(error as Error).message}); ${then}`;
        return { restored: [], changed: [] };
      });
    } finally {
      release();
    }
    // Deleted meanwhile (another window): nothing more to do in it.
    if (chats.get(sessionId) !== session) throw new UserFacingError('not_found', NOT_THERE);

    // The version shown now is kept whole (its plan undone when its files were put back), then replaced.
    const shown = session.item(itemId) as UserItem;
    const tag = tagOf(shown, of);
    const newTag: VersionTag = { group: tag.group, index: tag.count, count: tag.count + 1 };
    this.keepShown(session, shown, of, { ...tag, count: newTag.count }, mark.message);
    const blocks = userBlocksAt(session.history, mark, next);
    session.cutHistory(mark);
    // Defensive: a cut never leaves a tool call unanswered, but a history that did would be refused.
    session.closeOpenToolUses('Not run: the user edited an earlier message.');
    const planShown = plans.getPlan(sessionId);
    // A plan made in the replaced turns leaves with them; one made before goes on in the new version.
    if (plan && planShown) plans.drop(sessionId);
    chats.publish(session, { type: 'chat_rewound', sessionId, fromItemId: session.idAt(start)!, planDropped: !!plan });
    if (of === 'reply') chats.publish(session, { type: 'transcript_item', sessionId, item: withTag(shown, of, newTag) });
    if (files.restored.length || files.changed.length) {
      const marker: RerunItem = {
        id: newItemId(),
        createdAt: nowIso(),
        kind: 'rerun',
        how: replacement.how,
        ...(files.restored.length ? { restored: files.restored } : {}),
        ...(files.changed.length ? { changed: files.changed } : {}),
      };
      chats.publish(session, { type: 'transcript_item', sessionId, item: marker });
    }
    if (fileProblem) chats.publish(session, { type: 'transcript_item', sessionId, item: noticeItem('warning', fileProblem, 'rerun_files') });

    const text = replacement.text ?? item.text;
    // The message keeps what it carried besides its text (attachments); an edit replaces the text.
    const content: ContentBlockParam[] =
      replacement.how === 'edit' ? [...blocks.filter((b) => b.type !== 'text'), { type: 'text', text }] : blocks.length ? blocks : [{ type: 'text', text }];
    const historyAt = nextUserMark(session.history);
    session.appendUser(content);
    let sentId = item.id;
    if (of === 'message') {
      const sent: UserItem = { ...withTag(structuredClone(item), of, newTag), id: newItemId(), createdAt: nowIso(), text, historyAt };
      delete sent.replies;
      chats.publish(session, { type: 'transcript_item', sessionId, item: sent });
      sentId = sent.id;
    }
    // A title that was the first message follows its edit; one the user gave stays.
    const retitle = first && text !== item.text && session.summary.title === titleFrom(item.text);
    chats.touch(session, retitle ? titleFrom(text) : undefined);
    recovery.resetChat(sessionId);
    runs.start(session, apiKey);
    return { itemId: sentId };
  }

  /**
   * Keeps the version shown of the message's (or reply's) versions, from where it starts: its
   * items (the message tagged with `tag`), its history from API message `from` on, and its plan.
   * `unlessKept`: not again when the version kept under its index is the same (shown and left
   * unchanged): keeping is a durable record of the whole tail, and switching versions back and
   * forth would otherwise copy the tail into the chat's log on every click.
   */
  private keepShown(session: ChatSession, item: UserItem, of: VersionsOf, tag: VersionTag, from: number, unlessKept = false): void {
    const start = this.startOf(session, item, of);
    const items = session.itemsBetween(start).map((kept, i) => (of === 'message' && i === 0 && kept.kind === 'user' ? withTag(kept, of, tag) : kept));
    const shown: KeptVersion = { group: tag.group, index: tag.index, from, history: session.history.slice(from), items, plan: this.deps.plans.getPlan(session.summary.id) };
    // Compared as logged (JSON): a difference only JSON hides is none on disk either, and one it shows is kept.
    if (unlessKept && JSON.stringify(session.keptVersion(tag.group, tag.index)) === JSON.stringify(shown)) return;
    session.keepVersion(shown);
  }

  /** Where a version starts in the transcript: at the message (an edit) or just after it (a retried reply). */
  private startOf(session: ChatSession, item: UserItem, of: VersionsOf): number {
    const index = session.indexOf(item.id);
    return of === 'message' ? index : index + 1;
  }

  private refuseWhileRunning(sessionId: string, what: string): void {
    if (this.deps.runs.isRunning(sessionId)) throw new UserFacingError('busy', `Claude is working in this chat: press Stop first, then ${what}.`);
  }

  private refuseWhileQueued(sessionId: string, what: string): void {
    if (this.deps.isQueued(sessionId)) throw new UserFacingError('busy', `This chat is queued: press Stop to take it off the queue first, then ${what}.`);
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
    // Plan lines are found by their ids (no read); only the item at `index` is looked at.
    let first = 0;
    while (first < session.itemCount && !session.idAt(first)!.startsWith(`plan:${plan.id}:`)) first++;
    if (first < session.itemCount) return first >= index ? plan : null;
    return plan.createdAt >= (session.itemsBetween(index, index + 1)[0]?.createdAt ?? '') ? plan : null;
  }

  /**
   * The files the turns from `index` on changed: put back now when the user asked (and then a plan
   * made in those turns is marked undone, so the version kept with it shows so), or only named.
   */
  private async filesOf(session: ChatSession, index: number, restore: boolean, plan: Plan | null): Promise<{ restored: string[]; changed: string[] }> {
    const { recovery } = this.deps;
    const id = session.summary.id;
    const workspace = session.summary.workspace ?? null;
    const turns = turnsFrom(session, index);
    const { files } = await recovery.previewTurns(id, workspace, turns);
    if (!restore || files.length === 0) return { restored: [], changed: files.map((f) => f.path) };
    // Files changed outside Waypoint since are left alone, as Undo plan leaves them.
    const result = await recovery.restoreTurns(id, workspace, turns);
    if (plan) this.deps.plans.markUndone(id, result);
    return { restored: [...result.restored, ...result.deleted].sort(), changed: result.skipped };
  }
}

/** The user messages from transcript position `index` on: the turns a rerun from there replaces (kinds and ids only, no read). */
function turnsFrom(session: ChatSession, index: number): string[] {
  const turns: string[] = [];
  for (let i = Math.max(0, index); i < session.itemCount; i++) if (session.kindAt(i) === 'user') turns.push(session.idAt(i)!);
  return turns;
}
