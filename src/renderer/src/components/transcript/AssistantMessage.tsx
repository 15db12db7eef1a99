import { memo } from 'react';
import type { AssistantItem } from '../../../../shared/transcript';
import { Markdown } from '../../markdown/Markdown';

/** Claude's reply as Markdown; a caret while streaming, a marker when stopped or failed. */
export const AssistantMessage = memo(function AssistantMessage({ item }: { item: AssistantItem }) {
  return (
    <article className="msg msg--assistant" aria-label="Claude" aria-busy={item.status === 'streaming'}>
      <Markdown text={item.text} />
      {item.status === 'streaming' && <span className="caret" aria-hidden="true" />}
      {item.status === 'stopped' && <p className="msg-marker">stopped</p>}
      {item.status === 'error' && <p className="msg-marker msg-marker--error">reply interrupted</p>}
    </article>
  );
});
