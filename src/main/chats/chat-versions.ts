import type { MessageParam } from '@anthropic-ai/sdk/resources/messages';
import type { Plan } from '../../shared/plan';
import type { TranscriptItem, UserItem, VersionTag } from '../../shared/transcript';

/**
 * Versions in place (Edit message, Retry reply: docs/contract.md §5). A chat shows one version of
 * each edited message (or retried reply); the others are kept beside it, each whole from where it
 * starts: its transcript items, its API history from the message's API message on (the part
 * before is the same in every version of the message) and its plan. Showing another one swaps
 * the two; nothing of one version ever reaches the history another sends.
 */
export interface KeptVersion {
  /** The message's (or reply's) versions: VersionTag.group. */
  group: string;
  index: number;
  /** The API message the version starts in; `history` replaces the history from there on. */
  from: number;
  history: MessageParam[];
  /** Its transcript from where it starts: the edited message itself, or the first item of a reply. */
  items: TranscriptItem[];
  plan: Plan | null;
}

/** Which versions a user message's tag speaks of: the message's own (an edit), or its reply's (a retry). */
export type VersionsOf = 'message' | 'reply';

/** The message's tag for `of`; a message never edited (or retried) is version 1 of 1 of its own group. */
export function tagOf(item: UserItem, of: VersionsOf): VersionTag {
  const tag = of === 'message' ? item.version : item.replies;
  return tag ?? { group: of === 'message' ? item.id : `${item.id}:reply`, index: 0, count: 1 };
}

/** The user message with its tag for `of` set. */
export function withTag(item: UserItem, of: VersionsOf, tag: VersionTag): UserItem {
  return of === 'message' ? { ...item, version: tag } : { ...item, replies: tag };
}

export const versionKey = (group: string, index: number): string => `${group}#${index}`;
