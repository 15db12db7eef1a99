import { memo, type ReactNode } from 'react';
import type { AssistantItem } from '../../../../shared/transcript';
import { Markdown } from '../../markdown/Markdown';
import '../../markdown/streaming-caret.css';
import { CopyReplyButtons } from './CopyReplyButtons';
import { WebLinks } from './WebLinks';

/**
 * Claude's reply as Markdown; while it streams, unclosed formatting at its end shows as it will
 * be and a caret (streaming-caret.css) sits at the end of its last line. A marker when stopped or
 * failed. Once it has ended, its tools: Copy, Copy as Markdown, and what the transcript adds
 * (`children`: Retry reply on the last one).
 */
export const AssistantMessage = memo(function AssistantMessage({ item, children }: { item: AssistantItem; children?: ReactNode }) {
  return (
    <article className="msg msg--assistant" aria-label="Claude" aria-busy={item.status === 'streaming'}>
      <Markdown text={item.text} streaming={item.status === 'streaming'} cacheKey={item.id} findPart />
      {item.sources && item.sources.length > 0 && (
        <>
          <p className="reply-sources-heading" aria-hidden="true">Sources</p>
          <WebLinks label="Sources" pages={item.sources} className="reply-sources" />
        </>
      )}
      {item.status === 'stopped' && <p className="msg-marker">stopped</p>}
      {item.status === 'error' && <p className="msg-marker msg-marker--error">reply interrupted</p>}
      {item.status !== 'streaming' && (
        <div className="msg-tools msg-tools--reply">
          <CopyReplyButtons text={item.text}>{children}</CopyReplyButtons>
        </div>
      )}
    </article>
  );
});
