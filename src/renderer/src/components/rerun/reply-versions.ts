import type { TranscriptItem, UserItem } from '../../../../shared/transcript';

/**
 * Where each retried reply shows its "N/M": on the reply's last text (where "Retry reply" sits),
 * keyed by that item's id; a reply with no text shows it on its message, keyed by the message's id.
 */
export function replyVersionsOf(items: readonly TranscriptItem[]): ReadonlyMap<string, UserItem> {
  const found = new Map<string, UserItem>();
  let user: UserItem | null = null;
  let lastText: string | null = null;
  const close = () => {
    if (user?.replies && user.replies.count > 1) found.set(lastText ?? user.id, user);
  };
  for (const item of items) {
    if (item.kind === 'user') {
      close();
      user = item;
      lastText = null;
    } else if (item.kind === 'assistant' && item.text.trim()) {
      lastText = item.id;
    }
  }
  close();
  return found;
}
