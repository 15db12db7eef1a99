import { memo, type ReactNode } from 'react';
import type { AssistantItem } from '../../../../shared/transcript';
import { Markdown } from '../../markdown/Markdown';
import '../../markdown/streaming-caret.css';

/**
 * Claude's reply as Markdown; while it streams, unclosed formatting at its end shows as it will
 * be and a caret (streaming-caret.css) sits at the end of its last line. A marker when stopped or failed.
 */
export const AssistantMessage = memo(function AssistantMessage({ item, children }: { item: AssistantItem; children?: ReactNode }) {
  return (
    <article className="msg msg--assistant" aria-label="Claude" aria-busy={item.status === 'streaming'}>
      <Markdown text={item.text} streaming={item.status === 'streaming'} cacheKey={item.id} findPart />
      {item.status === 'stopped' && <p className="msg-marker">stopped</p>}
      {item.status === 'error' && <p className="msg-marker msg-marker--error">reply interrupted</p>}
      {children}
    </article>
  );
});
