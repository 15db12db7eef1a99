import { useMemo } from 'react';
import { marked } from 'marked';
import { BlockTokens } from './BlockToken';

/**
 * Assistant text as Markdown. marked only tokenises (no HTML output); React builds the elements,
 * so nothing in the model's text can become markup or script.
 */
export function Markdown({ text }: { text: string }) {
  const tokens = useMemo(() => marked.lexer(text, { gfm: true }), [text]);
  return (
    <div className="markdown">
      <BlockTokens tokens={tokens} />
    </div>
  );
}
