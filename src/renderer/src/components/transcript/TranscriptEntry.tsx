import { memo } from 'react';
import type { TranscriptItem } from '../../../../shared/transcript';
import { EditableUserMessage } from '../rerun/EditableUserMessage';
import { RerunNotice } from '../rerun/RerunNotice';
import { RetryReplyButton } from '../rerun/RetryReplyButton';
import { VersionNav } from '../rerun/VersionNav';
import type { UserItem } from '../../../../shared/transcript';
import { RetryNow } from '../run/RetryNow';
import { AssistantMessage } from './AssistantMessage';
import { CompactionMarker } from './CompactionMarker';
import { NoticeCallout } from './NoticeCallout';
import { PlanCompletionCard } from './PlanCompletionCard';
import { SubAgentCard } from './SubAgentCard';
import { ToolCallCard } from './ToolCallCard';
import { ThinkingBlock } from './ThinkingBlock';
import { UserMessage } from './UserMessage';

/** What the user can do from the transcript (absent: a read-only transcript). */
export interface TranscriptControls {
  sessionId: string;
  /** Messages can be edited (the chat is not damaged). */
  editable: boolean;
  /** The reply that holds "Retry reply" (the last one, while Claude is not working), or null. */
  retryId: string | null;
  /** Claude works in the chat: versions cannot be switched now. */
  working: boolean;
  /** Where retried replies show their versions: item id → the message whose reply it is (reply-versions.ts). */
  replyVersions: ReadonlyMap<string, UserItem>;
  /** The error notice that holds "Retry now" (the chat awaits it: docs/contract.md §5), or null. */
  retryNoticeId?: string | null;
}

interface Props {
  item: TranscriptItem;
  /** Only what concerns this item, so unchanged items keep rendering nothing new. */
  sessionId?: string;
  editable?: boolean;
  retry?: boolean;
  /** Claude works in the chat (the version buttons are off). */
  working?: boolean;
  /** This item shows the versions of this message's reply. */
  replyOf?: UserItem;
  /** This error notice is the one the chat's "Retry now" answers. */
  retryNow?: boolean;
}

/** One transcript item; unchanged items keep their object identity and so don't re-render. */
export const TranscriptEntry = memo(function TranscriptEntry({ item, sessionId, editable, retry, working = false, replyOf, retryNow }: Props) {
  switch (item.kind) {
    case 'user':
      return sessionId && editable ? (
        <EditableUserMessage item={item} sessionId={sessionId} working={working} repliesHere={replyOf?.id === item.id} />
      ) : (
        <UserMessage item={item} />
      );
    case 'assistant':
      // A finished reply with no text (a tool-only turn, a failed attempt) would be an empty bubble.
      return item.text.trim() || item.status === 'streaming' ? (
        <AssistantMessage item={item}>
          {sessionId && replyOf && editable ? <VersionNav sessionId={sessionId} item={replyOf} of="reply" locked={working} /> : null}
          {sessionId && retry ? <RetryReplyButton sessionId={sessionId} /> : null}
        </AssistantMessage>
      ) : null;
    case 'tool_call':
      // A delegate call is its sub-agent's card (the tool's name is main's tools/delegate.ts).
      return item.name === 'delegate' ? <SubAgentCard item={item} /> : <ToolCallCard item={item} />;
    case 'thinking':
      return item.status === 'discarded' ? null : <ThinkingBlock item={item} />;
    case 'plan_change':
      return <p className="plan-change" data-find>{item.text}</p>;
    case 'plan_completion':
      return <PlanCompletionCard item={item} />;
    case 'notice':
      return <NoticeCallout item={item}>{sessionId && retryNow ? <RetryNow sessionId={sessionId} /> : null}</NoticeCallout>;
    case 'rerun':
      return <RerunNotice item={item} />;
    case 'compaction':
      return <CompactionMarker item={item} />;
  }
});
