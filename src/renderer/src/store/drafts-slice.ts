import { createDraftStorage, type DraftStorage } from './draft-storage';
import type { SliceCreator } from './types';

/**
 * A draft per chat: the composer starts from its chat's draft and reports every change. Not
 * reactive state: only the composer of the chat reads it, when it mounts.
 */
export interface DraftsSlice {
  /** What is typed while New chat is being made (no chat id yet): it goes to the new chat. */
  newChatDraft: string;
  setNewChatDraft(text: string): void;
  draftOf(sessionId: string): string;
  saveDraft(sessionId: string, text: string): void;
  pruneDrafts(existing: readonly string[]): void;
  flushDrafts(): void;
}

export function createDraftsSlice(storage: DraftStorage = createDraftStorage()): SliceCreator<DraftsSlice> {
  return (set) => ({
    newChatDraft: '',
    setNewChatDraft: (text) => set({ newChatDraft: text }),
    draftOf: (sessionId) => storage.load(sessionId),
    saveDraft: (sessionId, text) => storage.save(sessionId, text),
    pruneDrafts: (existing) => storage.prune(existing),
    flushDrafts: () => storage.flush(),
  });
}
