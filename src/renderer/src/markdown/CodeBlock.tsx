import { memo, type ReactNode, useState } from 'react';
import { highlightCode, type HighlightNode } from './highlight';

function renderNode(node: HighlightNode | string, key: number): ReactNode {
  if (typeof node === 'string') return node;
  return (
    <span key={key} className={node.className ?? undefined}>
      {node.children.map(renderNode)}
    </span>
  );
}

/** A fenced code block, highlighted when the language is one we know, with a copy button. */
export const CodeBlock = memo(function CodeBlock({ code, lang }: { code: string; lang: string | undefined }) {
  const [copied, setCopied] = useState(false);
  const tree = highlightCode(code, lang);
  const language = lang?.trim().split(/\s+/)[0] ?? '';
  const copy = () => {
    void navigator.clipboard?.writeText(code).then(
      () => setCopied(true),
      () => setCopied(false),
    );
  };
  return (
    <div className="md-code">
      <div className="md-code-bar">
        <span className="md-code-lang">{language || 'text'}</span>
        <button type="button" className="md-code-copy" onClick={copy} aria-label="Copy code">
          {copied ? 'Copied' : 'Copy'}
        </button>
      </div>
      <pre>
        <code className={tree ? `hljs language-${language.toLowerCase()}` : 'hljs'}>
          {tree ? tree.children.map(renderNode) : code}
        </code>
      </pre>
    </div>
  );
});
