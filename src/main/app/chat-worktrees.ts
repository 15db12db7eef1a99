import { existsSync } from 'node:fs';
import path from 'node:path';
import type { CallOutput } from '../../shared/contract';
import type { SessionSummary } from '../../shared/transcript';
import type { ChatWorktree } from '../../shared/worktree';
import type { Chats } from '../chats/chats';
import { UserFacingError } from '../common/errors';
import { noticeItem } from '../common/transcript-items';
import type { WorkspaceGates } from '../common/workspace-gates';
import type { FolderChanges } from '../recovery/folder-changes';
import {
  forgetChatWorktree,
  gitRunner,
  startChatWorktree,
  mergeWorktree,
  removeLeftWorktree,
  adoptLeftWorktree,
  removeWorktree,
  requireFolder,
  revertWorktreeFile,
  sweepOrphanWorktrees,
  checkoutUnfinished,
  worktreeChanges,
  worktreeFileDiff,
  worktreeUsage,
  type GitRunner,
  type WorktreeStarted,
} from '../recovery/worktree';

/** Why a checkout failed, when it has already (an unsettled one is not waited for): its words, else null. */
function failedAlready(checkout: Promise<void>): Promise<string | null> {
  const why = checkout.then(
    () => null,
    (error: unknown) => (error instanceof Error ? error.message : String(error)),
  );
  // A settled promise answers within microtasks, before the next turn of the event loop.
  return Promise.race([why, new Promise<null>((resolve) => setImmediate(() => resolve(null)))]);
}

/** A worktree made ahead for a new chat, for the folder it was made from (or why it could not be). */
type Ahead = { workspace: string } & ({ start: WorktreeStarted } | { error: unknown });

export interface ChatWorktreesOptions {
  chats: Pick<Chats, 'getSession' | 'requireSession' | 'sessionInMemory' | 'listSessions' | 'setWorktree' | 'addNotice'>;
  folderChanges: FolderChanges;
  /** `<dataDir>/worktrees`: every chat's worktree is a folder there named by its chat id. */
  worktreesDir: string;
  /** `<dataDir>/sessions`: a chat exists while its folder does (whichever process made it). */
  sessionsDir: string;
  /** Settings "Work in a git worktree", read when a new chat sends its first message. */
  enabled: () => boolean;
  isRunning: (sessionId: string) => boolean;
  /**
   * Worktrees still being checked out: the first request goes out meanwhile (instructions and
   * skills read from the commit), while tools and Changes wait here for the whole tree.
   */
  gates: WorkspaceGates;
  git?: GitRunner;
  /** How long a worktree found half-written at start waits for a git that outlived its process (default 30 s). */
  unfinishedWaitMs?: number;
}

/** Until git's "initializing" lock on `folder` goes (a git still writing it finished), or why not by `ms`. */
async function checkoutFinishing(folder: string, repo: string, ms: number): Promise<void> {
  for (const deadline = Date.now() + ms; checkoutUnfinished(folder); await new Promise((r) => setTimeout(r, 250))) {
    if (Date.now() >= deadline) {
      throw new Error(
        `This chat's worktree (${folder}) was cut off while git was still writing it (Waypoint stopped in the middle of making it), so it holds only part of the files: nothing in it is used, changed or merged. Open Changes and press "Discard worktree"; the chat then works in ${repo}.`,
      );
    }
  }
}

/**
 * A chat's git worktree, from the first message to its deletion (docs/architecture.md "Worktrees
 * and Changes"), and the "Changes" of any chat: a worktree chat's from git, a plain folder's
 * from its turn checkpoints and its commands' snapshots.
 */
export class ChatWorktrees {
  private readonly git: GitRunner;
  /** A worktree being made: a second message meanwhile waits for the same one. */
  private readonly making = new Map<string, Promise<void>>();
  /** Worktrees started when their chat was made, before its first message (makeAhead). */
  private readonly ahead = new Map<string, Promise<Ahead>>();

  constructor(private readonly options: ChatWorktreesOptions) {
    this.git = options.git ?? gitRunner();
  }

  /**
   * Before a message is sent: a new chat (nothing in it yet) in a git repository gets its worktree
   * when the setting is on, and works there from this first message on; one that cannot have one
   * says why once (it then has a message, so it is no longer new). A chat whose worktree folder
   * was deleted by hand is refused with what to do, rather than working in a folder that is gone.
   */
  beforeMessage(sessionId: string): Promise<void> {
    const going = this.making.get(sessionId);
    if (going) return going;
    const made = this.prepare(sessionId).finally(() => this.making.delete(sessionId));
    this.making.set(sessionId, made);
    return made;
  }

  /**
   * A new chat made with the setting on: its worktree is started now, in the background (a
   * checkout of a big repository takes seconds), so the first message waits only for what is left
   * of it. Nothing is on the chat's record until that message: a chat never used keeps no
   * worktree (Delete chat and the next start's sweep take it), and the notices are said then.
   */
  makeAhead(sessionId: string): void {
    if (this.ahead.has(sessionId) || this.making.has(sessionId) || !this.options.enabled()) return;
    const snapshot = this.options.chats.getSession(sessionId);
    const { worktree, workspace } = snapshot.session;
    if (worktree || !workspace || snapshot.transcript.length > 0 || (snapshot.olderItems ?? 0) > 0) return;
    const made: Promise<Ahead> = this.makeOrAdopt(sessionId, workspace).then(
      (start) => ({ workspace, start }),
      (error: unknown) => ({ workspace, error }),
    );
    this.ahead.set(sessionId, made);
  }

  /** A worktree made ahead and not (or no longer) wanted: its folder and branch go. */
  private async dropAhead(sessionId: string): Promise<void> {
    const early = this.ahead.get(sessionId);
    if (!early) return;
    this.ahead.delete(sessionId);
    const got = await early;
    if ('start' in got && got.start.kind === 'made') await this.removeStarted(got.start);
  }

  /** A worktree started and not wanted: once its checkout has ended (a failed one is gone already), it goes. */
  private async removeStarted(start: Extract<WorktreeStarted, { kind: 'made' }>): Promise<void> {
    if (await start.checkout.then(() => true, () => false)) await removeWorktree(this.git, start.worktree.repo, start.worktree.path, start.worktree.branch);
  }

  /** Before the chat is deleted: a worktree made ahead for it goes too (it is on no record). */
  forgetAhead(sessionId: string): Promise<void> {
    return this.dropAhead(sessionId).catch(() => undefined);
  }

  /**
   * The chat's worktree: one made ahead by a process that quit before the chat's first message is
   * used when it is still as made (the app restarted with an empty chat open would otherwise check
   * out the repository again at every start); otherwise it goes and one is made afresh.
   */
  private async makeOrAdopt(sessionId: string, workspace: string): Promise<WorktreeStarted> {
    const options = { workspace, worktreesDir: this.options.worktreesDir, chatId: sessionId };
    const left = await adoptLeftWorktree(this.git, options);
    if (left?.kind === 'made') return { ...left, checkout: Promise.resolve() };
    if (left) return left;
    await removeLeftWorktree(this.git, path.join(this.options.worktreesDir, sessionId), sessionId);
    return startChatWorktree(this.git, options);
  }

  private async prepare(sessionId: string): Promise<void> {
    const snapshot = this.options.chats.getSession(sessionId);
    const { worktree, workspace } = snapshot.session;
    // Still being checked out (a second message soon after the first): its folder may not be there yet.
    if (worktree) return this.options.gates.pending(worktree.path) ? undefined : requireFolder(worktree);
    const isNew = snapshot.transcript.length === 0 && (snapshot.olderItems ?? 0) === 0;
    const early = this.ahead.get(sessionId);
    if (!this.options.enabled() || !isNew || !workspace) {
      await this.dropAhead(sessionId);
      return;
    }
    let start: WorktreeStarted | null = null;
    if (early) {
      this.ahead.delete(sessionId);
      const got = await early;
      // Only a worktree made is kept: a folder that was no repository then (or a fault) may be one
      // now, so that answer is asked again (it costs no checkout).
      if (got.workspace === workspace && 'start' in got && got.start.kind === 'made') {
        start = got.start;
      } else if ('start' in got && got.start.kind === 'made') {
        // The chat's folder changed since (chooseWorkspace): that worktree is of another one.
        await this.removeStarted(got.start);
      }
    }
    start ??= await this.makeOrAdopt(sessionId, workspace);
    if (start.kind === 'plain') {
      this.options.chats.addNotice(sessionId, noticeItem('info', start.note, 'workspace'));
      return;
    }
    // A checkout made ahead that has failed already: the message is refused as before (nothing is
    // left; the chat is still new, so sending again tries afresh).
    const failed = await failedAlready(start.checkout);
    if (failed) throw new UserFacingError('internal', `${failed} Send again, or turn off "Work in a git worktree".`);
    try {
      this.options.chats.setWorktree(sessionId, start.worktree, start.workspace);
    } catch (error) {
      // Never a worktree no chat knows of.
      await this.removeStarted(start);
      throw error;
    }
    if (start.note) this.options.chats.addNotice(sessionId, noticeItem('info', start.note, 'workspace'));
    this.watchCheckout(sessionId, workspace, start);
  }

  /**
   * The message goes on while the checkout runs (what its request needs comes from the commit):
   * tools and Changes wait at the gate. A checkout that fails has taken its folder and branch
   * along; the chat then works in the folder it came from, and says why once.
   */
  private watchCheckout(sessionId: string, from: string, start: Extract<WorktreeStarted, { kind: 'made' }>): void {
    const { worktree } = start;
    const why = (error: unknown): string =>
      `${error instanceof Error ? error.message : String(error)} This chat now works in ${from} itself, not in a git worktree; the tool calls that waited for it did not run.`;
    this.options.gates.hold({ repo: worktree.repo, commit: worktree.baseCommit, root: worktree.path }, start.checkout, why);
    start.checkout.catch((error: unknown) => {
      if (!this.options.chats.sessionInMemory(sessionId)) return; // deleted meanwhile
      try {
        this.options.chats.setWorktree(sessionId, null, from, { whileRunning: true });
        this.options.chats.addNotice(sessionId, noticeItem('error', why(error), 'workspace'));
      } catch {
        // The chat went while git failed: nothing is left to point elsewhere.
      }
    });
  }

  /** A worktree still being checked out is waited for; one whose checkout failed is refused with why. */
  private async whole(worktree: ChatWorktree): Promise<void> {
    const why = await this.options.gates.wait(worktree.path);
    if (why) throw new UserFacingError('invalid_input', why);
  }

  /**
   * At start: a chat's worktree whose checkout was cut off (the process killed while git wrote it,
   * git with it) holds only part of the commit's files, and would read as the chat having deleted
   * the rest — which Merge would then carry into the branch. Its gate waits a while for a git
   * that outlived its process to finish; otherwise the worktree is refused with why to every tool,
   * Show diff, Revert and Merge, and Changes says it with "Discard worktree". Returns how many.
   */
  holdUnfinished(): number {
    let held = 0;
    for (const summary of this.options.chats.listSessions()) {
      const worktree = summary.worktree;
      if (!worktree || this.options.gates.wait(worktree.path) || !checkoutUnfinished(worktree.path)) continue;
      const finishing = checkoutFinishing(worktree.path, worktree.repo, this.options.unfinishedWaitMs ?? 30_000);
      this.options.gates.hold({ repo: worktree.repo, commit: worktree.baseCommit, root: worktree.path }, finishing, (error) => (error instanceof Error ? error.message : String(error)));
      held += 1;
    }
    return held;
  }

  /**
   * Every checkout still running has ended: a process quits only then, so none is left half made.
   * That includes those made ahead for new chats, which no gate holds until their first message.
   */
  async idle(): Promise<void> {
    const ahead = [...this.ahead.values()].map(async (early) => {
      const got = await early;
      if ('start' in got && got.start.kind === 'made') await got.start.checkout.catch(() => undefined);
    });
    await Promise.all([this.options.gates.idle(), ...ahead]);
  }

  private worktreeOf(sessionId: string): ChatWorktree | null {
    return this.options.chats.getSession(sessionId).session.worktree ?? null;
  }

  private workspaceOf(sessionId: string): string | null {
    return this.options.chats.getSession(sessionId).session.workspace ?? null;
  }

  /** Paths in a plain folder's Changes are relative to the chat's workspace, as its tools name them. */
  async changes(sessionId: string): Promise<CallOutput<'getChanges'>> {
    const worktree = this.worktreeOf(sessionId);
    if (worktree) {
      // One that can never be whole says why, with its worktree (so "Discard worktree" is there).
      const why = await this.options.gates.wait(worktree.path);
      return why ? { files: [], worktree, note: why } : { files: await worktreeChanges(this.git, worktree), worktree };
    }
    const root = this.workspaceOf(sessionId);
    const files = await this.options.folderChanges.list(sessionId, root);
    const note = this.options.folderChanges.note(sessionId, root) ?? "Files Claude's file tools and commands changed (commands' changes to files .gitignore leaves out, or in node_modules, are not followed).";
    return { files, worktree: null, note };
  }

  async fileDiff(sessionId: string, file: string): Promise<string> {
    const worktree = this.worktreeOf(sessionId);
    if (worktree) await this.whole(worktree);
    if (worktree) return worktreeFileDiff(this.git, worktree, file);
    return this.options.folderChanges.diff(sessionId, this.workspaceOf(sessionId), file);
  }

  async revertFile(sessionId: string, file: string): Promise<CallOutput<'revertFile'>> {
    this.notWhileRunning(sessionId, 'revert a file');
    const worktree = this.worktreeOf(sessionId);
    if (worktree) await this.whole(worktree);
    if (worktree) await revertWorktreeFile(this.git, worktree, file);
    else await this.options.folderChanges.revert(sessionId, this.workspaceOf(sessionId), file);
    return { files: (await this.changes(sessionId)).files };
  }

  async merge(sessionId: string): Promise<CallOutput<'mergeWorktree'>> {
    this.notWhileRunning(sessionId, 'merge');
    const summary = this.options.chats.getSession(sessionId).session;
    if (!summary.worktree) throw new UserFacingError('invalid_input', 'This chat has no git worktree to merge.');
    await this.whole(summary.worktree);
    return mergeWorktree(this.git, summary.worktree, summary.title);
  }

  /** The worktree and its branch go; the chat goes on in the folder it was made from, and says so. */
  async discard(sessionId: string): Promise<CallOutput<'discardWorktree'>> {
    this.notWhileRunning(sessionId, 'discard its worktree');
    const summary = this.options.chats.getSession(sessionId).session;
    const worktree = summary.worktree;
    if (!worktree) throw new UserFacingError('invalid_input', 'This chat has no git worktree to discard.');
    await this.options.gates.wait(worktree.path);
    await removeWorktree(this.git, worktree.repo, worktree.path, worktree.branch);
    // The same subfolder of the repository the chat worked in inside its worktree.
    const sub = summary.workspace ? path.relative(worktree.path, summary.workspace) : '';
    const back = sub && !sub.startsWith('..') ? path.join(worktree.repo, sub) : worktree.repo;
    const session = this.options.chats.setWorktree(sessionId, null, back);
    this.options.chats.addNotice(sessionId, noticeItem('info', `Worktree discarded (branch ${worktree.branch} deleted): Claude's file and command tools now work in ${back}.`, 'workspace'));
    return { session };
  }

  /** The worktree of a chat about to be deleted, read before the chat goes. */
  worktreeBeforeDelete(sessionId: string): { worktree: ChatWorktree; title: string } | null {
    const summary: SessionSummary | undefined = this.options.chats.sessionInMemory(sessionId)?.summary ?? this.options.chats.listSessions().find((s) => s.id === sessionId);
    return summary?.worktree ? { worktree: summary.worktree, title: summary.title } : null;
  }

  async forget(held: { worktree: ChatWorktree; title: string }, keepBranch: boolean): Promise<void> {
    // A checkout still running ends first: git never removes a worktree it is writing.
    await this.options.gates.wait(held.worktree.path);
    return forgetChatWorktree(this.git, held.worktree, { keepBranch, title: held.title });
  }

  /** A chat exists while its folder does (whichever process made it) or this process holds it. */
  readonly isChat = (chatId: string): boolean =>
    existsSync(path.join(this.options.sessionsDir, chatId)) || this.options.chats.listSessions().some((s) => s.id === chatId);

  /** Sweeps one after another: "Clean up worktrees" right after start waits for the start's sweep. */
  private sweeps: Promise<unknown> = Promise.resolve();

  /** At start and on "Clean up worktrees": worktrees whose chat is gone. */
  sweep(): Promise<number> {
    const next = this.sweeps.then(() => sweepOrphanWorktrees(this.git, this.options.worktreesDir, this.isChat));
    this.sweeps = next.catch(() => undefined);
    return next;
  }

  usage(): Promise<{ count: number; bytes: number }> {
    return worktreeUsage(this.options.worktreesDir);
  }

  private notWhileRunning(sessionId: string, what: string): void {
    this.options.chats.requireSession(sessionId);
    if (this.options.isRunning(sessionId)) throw new UserFacingError('busy', `Claude is working in this chat. Press Stop (or wait) before you ${what}.`);
  }
}
