import type { UserItem } from '../../../../shared/transcript';

export function UserMessage({ item }: { item: UserItem }) {
  return (
    <article className="msg msg--user" aria-label="You">
      <div className="msg-bubble">{item.text}</div>
    </article>
  );
}
