import { createDraftStorage, type DraftStorage } from './draft-storage';
import type { SliceCreator } from './types';

/**
 * A draft per chat: the composer starts from its chat's draft and reports every change. Not
 * reactive state: only the composer of the chat reads it, when it mounts.
 */
export interface DraftsSlice {
  draftOf(sessionId: string): string;
  saveDraft(sessionId: string, text: string): void;
  pruneDrafts(existing: readonly string[]): void;
  flushDrafts(): void;
}

export function createDraftsSlice(storage: DraftStorage = createDraftStorage()): SliceCreator<DraftsSlice> {
  return () => ({
    draftOf: (sessionId) => storage.load(sessionId),
    saveDraft: (sessionId, text) => storage.save(sessionId, text),
    pruneDrafts: (existing) => storage.prune(existing),
    flushDrafts: () => storage.flush(),
  });
}
