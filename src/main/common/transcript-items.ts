import { randomUUID } from 'node:crypto';
import type { AssistantItem, NoticeItem, UserItem } from '../../shared/transcript';

/** Small constructors for transcript items, so every item gets an id and a time the same way. */

export const newItemId = (): string => randomUUID();
export const nowIso = (): string => new Date().toISOString();

export function userItem(text: string): UserItem {
  return { id: newItemId(), createdAt: nowIso(), kind: 'user', text };
}

export function assistantItem(): AssistantItem {
  return { id: newItemId(), createdAt: nowIso(), kind: 'assistant', text: '', status: 'streaming' };
}

export function noticeItem(level: NoticeItem['level'], text: string, code?: string): NoticeItem {
  return { id: newItemId(), createdAt: nowIso(), kind: 'notice', level, text, ...(code ? { code } : {}) };
}
