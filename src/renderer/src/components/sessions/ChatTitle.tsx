import { EARLIER_VERSION, splitEarlierTitle } from '../../../../shared/earlier-version';

/**
 * A chat's title in the list. A long title is cut short with an ellipsis, but "(earlier version)"
 * stays in view: it is what tells a kept copy from the chat that went on. The title is read
 * whole, as one text.
 */
export function ChatTitle({ title }: { title: string }) {
  const { base, earlier } = splitEarlierTitle(title);
  if (!earlier) return <span className="chat-title">{title}</span>;
  return (
    <>
      <span className="sr-only">{title}</span>
      <span className="chat-title" aria-hidden="true">
        {base}
      </span>
      <span className="chat-earlier" aria-hidden="true">
        {EARLIER_VERSION}
      </span>
    </>
  );
}
