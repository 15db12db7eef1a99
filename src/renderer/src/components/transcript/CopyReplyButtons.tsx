import { type ReactNode, useEffect, useState } from 'react';
import './reply-tools.css';
import { markdownToPlainText } from '../../markdown/plain-text';

type Copied = 'text' | 'markdown' | 'failed' | null;

/**
 * "Copy" (the reply as the plain text it shows) and "Copy as Markdown" (its source) on every
 * finished reply, then `children` (Retry reply) in the same row. The status line says it worked,
 * for the eye and for screen readers alike; it comes last, so while empty it puts no gap between
 * the buttons (it sat between them and pushed Retry reply out of step).
 */
export function CopyReplyButtons({ text, children }: { text: string; children?: ReactNode }) {
  const [copied, setCopied] = useState<Copied>(null);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(null), 2500);
    return () => clearTimeout(timer);
  }, [copied]);

  const copy = (kind: 'text' | 'markdown') => {
    const value = kind === 'text' ? markdownToPlainText(text) : text;
    // navigator.clipboard is missing outside a secure context: say so rather than do nothing.
    const write = navigator.clipboard?.writeText(value) ?? Promise.reject(new Error('no clipboard'));
    write.then(
      () => setCopied(kind),
      () => setCopied('failed'),
    );
  };

  return (
    <>
      <button type="button" className="msg-tool" onClick={() => copy('text')}>
        Copy
      </button>
      <button type="button" className="msg-tool" onClick={() => copy('markdown')}>
        Copy as Markdown
      </button>
      {children}
      {/* A live region without role=status: one per reply, and the page keeps one status of its own. */}
      <span className="msg-tool-status" aria-live="polite">
        {copied === 'failed' ? 'Could not copy' : copied ? 'Copied' : ''}
      </span>
    </>
  );
}
