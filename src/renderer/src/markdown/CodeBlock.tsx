import { memo, type ReactNode, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { onIdle } from '../lib/idle';
import { colourRuns } from './code-colours';
import { highlightRegistry, paintWhileNear } from './code-highlights';
import { highlightCode, highlightIsReady, type HighlightNode } from './highlight';

function renderNode(node: HighlightNode | string, key: number): ReactNode {
  if (typeof node === 'string') return node;
  return (
    <span key={key} className={node.className ?? undefined}>
      {node.children.map(renderNode)}
    </span>
  );
}

/**
 * A fenced code block, highlighted when the language is one we know, with a copy button. The code
 * is one text node coloured with the CSS Custom Highlight API (code-highlights.ts); a browser
 * without it gets a span per token.
 */
export const CodeBlock = memo(function CodeBlock({ code, lang }: { code: string; lang: string | undefined }) {
  const [copied, setCopied] = useState(false);
  const registry = highlightRegistry();
  // A block that mounts before its code was highlighted (a chat opening: its last rows are not
  // prepared yet) shows the text at once and takes its colours in the next idle period, so hljs
  // is off the frame that opens the chat (on the 300-turn chat it was half of that frame's
  // script). From then on, as before, a change (a reply streaming) is highlighted as it renders.
  // Only with CSS highlights, where the colours are not in the DOM: the text and the row's
  // height are the same without them.
  const [deferred, setDeferred] = useState(() => registry !== null && !highlightIsReady(code, lang));
  useEffect(() => (deferred ? onIdle(() => setDeferred(false)) : undefined), [deferred]);
  const tree = useMemo(() => (deferred ? null : highlightCode(code, lang)), [deferred, code, lang]);
  const runs = useMemo(() => (registry && tree ? colourRuns(tree) : null), [registry, tree]);
  const codeRef = useRef<HTMLElement>(null);
  useLayoutEffect(() => {
    const code = codeRef.current;
    const text = code?.firstChild;
    if (!registry || !runs || !code || !(text instanceof Text)) return;
    return paintWhileNear(registry, code, text, runs);
  }, [registry, runs]);
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
        <code ref={codeRef} className={tree ? `hljs language-${language.toLowerCase()}` : 'hljs'}>
          {tree && !runs ? tree.children.map(renderNode) : code}
        </code>
      </pre>
    </div>
  );
});
