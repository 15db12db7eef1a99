import { memo } from 'react';
import type { TranscriptItem } from '../../../../shared/transcript';
import { AssistantMessage } from './AssistantMessage';
import { NoticeCallout } from './NoticeCallout';
import { PlanCompletionCard } from './PlanCompletionCard';
import { ToolCallCard } from './ToolCallCard';
import { UserMessage } from './UserMessage';

/** One transcript item; unchanged items keep their object identity and so don't re-render. */
export const TranscriptEntry = memo(function TranscriptEntry({ item }: { item: TranscriptItem }) {
  switch (item.kind) {
    case 'user':
      return <UserMessage item={item} />;
    case 'assistant':
      // A finished reply with no text (a tool-only turn, a failed attempt) would be an empty bubble.
      return item.text.trim() || item.status === 'streaming' ? <AssistantMessage item={item} /> : null;
    case 'tool_call':
      return <ToolCallCard item={item} />;
    case 'plan_change':
      return <p className="plan-change">{item.text}</p>;
    case 'plan_completion':
      return <PlanCompletionCard item={item} />;
    case 'notice':
      return <NoticeCallout item={item} />;
  }
});
