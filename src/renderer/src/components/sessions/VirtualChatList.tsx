import { createContext, type ReactNode, useContext, useRef, useState } from 'react';
import { type CustomContainerComponentProps, type CustomItemComponentProps, Virtualizer } from 'virtua';
import type { SessionSummary } from '../../../../shared/transcript';
import { moveInList } from './SessionItem';
import { useChatRun } from './use-chat-run';

/**
 * From how many chats the sidebar draws only the rows in view: 10,000 rows took seconds to render
 * at start and held ~100,000 elements (issue 22). A shorter list is drawn whole, as it always
 * was (find in page, and nothing to measure).
 */
export const VIRTUAL_FROM = 150;

/** A row's height before it is measured (one line of title and the padding). */
const ROW_ESTIMATE = 34;
/**
 * Rows drawn beyond the view on each side: the arrow keys and Tab move focus to the next row
 * (it must exist to take focus), and focusing it scrolls it into view, which draws the next ones.
 */
const BUFFER = ROW_ESTIMATE * 8;

interface Props {
  sessions: readonly SessionSummary[];
  /** What the item of chat `session` holds (SessionItemParts). */
  row(session: SessionSummary): ReactNode;
}

/** The ids of the rows, so an item can say which chat it draws (data-chat-id). */
const IdsContext = createContext<readonly SessionSummary[]>([]);

/**
 * The chat list, virtualised (virtua, as the transcript is): still one list (`ul`) of one item
 * (`li`) per drawn chat, each chat one Tab stop and the arrow keys between them (SessionItem.tsx),
 * in a box of its own that scrolls. The row holding focus stays drawn while scrolled away, or
 * focus (and a half-typed title) would be lost.
 */
export function VirtualChatList({ sessions, row }: Props) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const [focusedId, setFocusedId] = useState<string | null>(null);
  const focused = focusedId === null ? -1 : sessions.findIndex((s) => s.id === focusedId);
  return (
    <div
      ref={scrollRef}
      className="chat-list-scroll"
      data-virtual-viewport
      onFocus={(event) => setFocusedId((event.target as HTMLElement).closest<HTMLElement>('[data-chat-id]')?.dataset.chatId ?? null)}
    >
      <IdsContext.Provider value={sessions}>
        <Virtualizer
          data={sessions}
          as={ChatListBox}
          item={ChatRowBox}
          itemSize={ROW_ESTIMATE}
          bufferSize={BUFFER}
          scrollRef={scrollRef}
          {...(focused >= 0 ? { keepMounted: [focused] } : {})}
        >
          {(session: SessionSummary) => <>{row(session)}</>}
        </Virtualizer>
      </IdsContext.Provider>
    </div>
  );
}

function ChatListBox({ style, children, ref }: CustomContainerComponentProps) {
  return (
    <ul ref={ref as never} className="chat-list chat-list--virtual" style={style}>
      {children}
    </ul>
  );
}

function ChatRowBox({ style, index, children, ref }: CustomItemComponentProps) {
  const session = useContext(IdsContext)[index];
  const run = useChatRun(session);
  return (
    <li ref={ref as never} className="chat-item" style={style} data-row={index} data-chat-id={session?.id} data-run={run} onKeyDown={moveInList}>
      {children}
    </li>
  );
}
