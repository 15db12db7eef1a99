import type { CallOutput } from '../../shared/contract';
import type { ChatWriter } from '../../shared/chat-writer';
import type { NoticeItem } from '../../shared/transcript';
import { noticeItem } from '../common/transcript-items';
import { describeOwner, type LockOwner, type LockState } from '../store/chat-lock';

/** What "Take over" needs of the log store (store/chat-logs.ts). */
export interface TakeOverStore {
  chatWriter(sessionId: string): { owner: LockOwner; state: LockState } | null;
  takeOver(sessionId: string, token: string): LockOwner | null;
}

/** What it needs of the chats and their runs: a chat must exist, the notices say what happened. */
export interface TakeOverChat {
  requireSession(sessionId: string): unknown;
  addNotice(sessionId: string, item: NoticeItem): void;
  stop(sessionId: string): { stopped: boolean };
}

/** The lock's holder as the window shows it ("Take over" is offered unless it is verifiably running). */
export function chatWriterOf(store: TakeOverStore, sessionId: string): ChatWriter | null {
  const held = store.chatWriter(sessionId);
  if (!held) return null;
  const { owner, state } = held;
  const shown = state.kind === 'alive' ? 'running' : state.kind === 'unverified' && state.why === 'other_host' ? 'other_host' : 'unverified';
  return { holder: owner.holder, host: owner.host, pid: owner.pid, since: owner.since, token: owner.token, state: shown };
}

/** The user's "Take over": this process writes the chat now, and the chat says from whom it was taken. */
export function takeOverChat(store: TakeOverStore, chat: TakeOverChat, sessionId: string, token: string): CallOutput<'takeOverChat'> {
  chat.requireSession(sessionId);
  const from = store.takeOver(sessionId, token);
  if (from) {
    chat.addNotice(
      sessionId,
      noticeItem('info', `You took this chat over from ${describeOwner(from)} (writing it since ${from.since}). If that process still runs, it stops writing this chat.`, 'chat_taken_over'),
    );
  }
  return { takenOver: true };
}

/**
 * This process lost a chat's lock (the user took it over elsewhere): a run here is stopped, since
 * nothing it does can be saved, and the window says so. The notice stays in this process's memory
 * only; the log belongs to the new writer.
 */
export function lockLost(chat: TakeOverChat, sessionId: string, by: LockOwner | null): void {
  try {
    chat.requireSession(sessionId);
  } catch {
    return; // deleted meanwhile
  }
  const stopped = chat.stop(sessionId).stopped;
  const who = by ? describeOwner(by) : 'another Waypoint process';
  chat.addNotice(sessionId, noticeItem('warning', `${who} took this chat over; it is no longer written here${stopped ? ' and the run here was stopped' : ''}.`, 'chat_lock_lost'));
}
