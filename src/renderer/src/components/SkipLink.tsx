import type { MouseEvent } from 'react';
import './skip-link.css';

/** The chat's column: where "Skip to conversation" lands when there is no conversation yet (onboarding). */
export const SKIP_TARGET_ID = 'conversation';

/**
 * "Skip to conversation": the page's first Tab stop, shown only while it has the focus, so a
 * keyboard user need not Tab through every chat of the list to reach the one open. It focuses
 * the transcript (the log "Conversation"); the URL keeps no fragment (the web shell's address
 * is not for the page to change).
 */
export function SkipLink() {
  const skip = (event: MouseEvent<HTMLAnchorElement>) => {
    event.preventDefault();
    const main = document.getElementById(SKIP_TARGET_ID);
    const log = main?.querySelector<HTMLElement>('[role="log"]');
    (log ?? main)?.focus();
  };
  return (
    <a className="skip-link" href={`#${SKIP_TARGET_ID}`} onClick={skip}>
      Skip to conversation
    </a>
  );
}
