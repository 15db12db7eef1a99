import { type KeyboardEvent, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { focusComposer } from '../../keyboard/focus-prompt';
import { useWaypoint } from '../../store/store-context';
import { Icon } from '../icons/Icon';
import { findStatus } from './find-status';
import './find.css';

/** Typing waits this long for the next key before main is asked. */
export const FIND_DEBOUNCE_MS = 150;

/** The find bar above the transcript, while find is open. */
export function FindBar() {
  const open = useWaypoint((s) => s.findOpen);
  return open ? <OpenFindBar /> : null;
}

/**
 * Find in chat: the matches come from main (the whole chat, not only what the transcript has on
 * screen). Enter goes to the next match, Shift+Enter to the previous; Escape closes the bar and
 * gives the focus back to where it was.
 */
function OpenFindBar() {
  const sessionId = useWaypoint((s) => s.currentSessionId);
  // The chat grew (a new message or tool call): search again; streamed text and older pages loaded do not.
  const itemCount = useWaypoint((s) => {
    const window = sessionId ? s.transcripts[sessionId] : undefined;
    return window ? window.olderItems + window.items.length : 0;
  });
  const request = useWaypoint((s) => s.findRequest);
  const result = useWaypoint((s) => s.findResult);
  const index = useWaypoint((s) => s.findIndex);
  const error = useWaypoint((s) => s.findError);
  const searchedFor = useWaypoint((s) => s.findQuery);
  const findInChat = useWaypoint((s) => s.findInChat);
  const stepFind = useWaypoint((s) => s.stepFind);
  const closeFind = useWaypoint((s) => s.closeFind);
  const [query, setQuery] = useState('');
  const barRef = useRef<HTMLDivElement>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const returnTo = useRef<HTMLElement | null>(null);

  // Each request (the shortcut, the header button) puts the focus in the box, remembering where it was.
  useLayoutEffect(() => {
    const active = document.activeElement;
    if (active instanceof HTMLElement && active !== document.body && !barRef.current?.contains(active)) returnTo.current = active;
    inputRef.current?.focus();
    inputRef.current?.select();
  }, [request]);

  useEffect(() => {
    const timer = setTimeout(() => void findInChat(query), FIND_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [findInChat, query, sessionId, itemCount]);

  const close = () => {
    const back = returnTo.current;
    closeFind();
    if (back?.isConnected) back.focus();
    else focusComposer(document);
  };

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Escape') {
      event.preventDefault();
      event.stopPropagation();
      close();
    } else if (event.key === 'Enter' && event.target === inputRef.current) {
      event.preventDefault();
      // Enter before the pause ends searches at once rather than stepping through an older answer.
      if (searchedFor !== query) void findInChat(query);
      else stepFind(event.shiftKey ? -1 : 1);
    }
  };

  const count = searchedFor === query ? (result?.matches.length ?? 0) : 0;
  return (
    <div ref={barRef} className="find-bar" role="search" aria-label="Find in chat" onKeyDown={onKeyDown}>
      <Icon name="search" className="find-bar-icon" />
      <input
        ref={inputRef}
        type="text"
        className="find-bar-input"
        aria-label="Find in chat"
        placeholder="Find in chat"
        value={query}
        onChange={(e) => setQuery(e.target.value)}
        spellCheck={false}
      />
      <span className="find-bar-status" role="status" aria-live="polite">
        {findStatus(query.trim() ? result : null, index, error)}
      </span>
      <button type="button" className="btn btn--icon" aria-label="Previous match" title="Previous match (Shift+Enter)" disabled={count === 0} onClick={() => stepFind(-1)}>
        <Icon name="up" />
      </button>
      <button type="button" className="btn btn--icon" aria-label="Next match" title="Next match (Enter)" disabled={count === 0} onClick={() => stepFind(1)}>
        <Icon name="chevron" />
      </button>
      <button type="button" className="btn btn--icon" aria-label="Close find" title="Close (Escape)" onClick={close}>
        <Icon name="cross" />
      </button>
    </div>
  );
}
