import type { TranscriptItem } from '../../../shared/transcript';

/** What the sidebar search looks through in an item: what the user read, not tool inputs or results. */
export function sidebarText(item: TranscriptItem): string {
  switch (item.kind) {
    case 'user':
      return [item.text, ...(item.attachments ?? []).map((a) => a.name)].join(' ');
    case 'assistant':
    case 'notice':
    case 'plan_change':
      return item.text;
    case 'plan_completion':
      return `${item.goal} ${item.completion.summary}`;
    case 'tool_call':
      return item.summary;
    case 'thinking':
    case 'rerun':
      return '';
    case 'compaction':
      return item.summary;
  }
}
