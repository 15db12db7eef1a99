import type { ReactNode } from 'react';
import type { Token, Tokens } from 'marked';
import { safeHref } from './safe-url';

/** Inline markdown (emphasis, code, links…) as React elements; raw HTML stays visible text. */
export function InlineTokens({ tokens }: { tokens: Token[] | undefined }): ReactNode {
  if (!tokens) return null;
  return tokens.map((token, index) => <Inline key={index} token={token} />);
}

function Inline({ token }: { token: Token }): ReactNode {
  switch (token.type) {
    case 'strong':
      return <strong><InlineTokens tokens={(token as Tokens.Strong).tokens} /></strong>;
    case 'em':
      return <em><InlineTokens tokens={(token as Tokens.Em).tokens} /></em>;
    case 'del':
      return <del><InlineTokens tokens={(token as Tokens.Del).tokens} /></del>;
    case 'codespan':
      return <code className="md-inline-code">{(token as Tokens.Codespan).text}</code>;
    case 'br':
      return <br />;
    case 'link': {
      const link = token as Tokens.Link;
      const href = safeHref(link.href);
      const content = <InlineTokens tokens={link.tokens} />;
      if (!href) return <span className="md-unsafe-link">{content}</span>;
      return (
        <a href={href} target="_blank" rel="noopener noreferrer" title={link.title ?? undefined}>
          {content}
        </a>
      );
    }
    case 'image': {
      // External images are blocked by the CSP anyway; show the alt text and a safe link.
      const image = token as Tokens.Image;
      const href = safeHref(image.href);
      const label = `[image: ${image.text || image.href}]`;
      return href ? <a href={href} target="_blank" rel="noopener noreferrer">{label}</a> : <span>{label}</span>;
    }
    case 'text': {
      const text = token as Tokens.Text;
      return text.tokens ? <InlineTokens tokens={text.tokens} /> : text.text;
    }
    case 'escape':
      return (token as Tokens.Escape).text;
    case 'html':
      return (token as Tokens.HTML).raw;
    default:
      return 'raw' in token ? token.raw : null;
  }
}
