import { memo, type ReactNode } from 'react';
import type { Token, Tokens } from 'marked';
import { CodeBlock } from './CodeBlock';
import { InlineTokens } from './InlineTokens';

function Heading({ token }: { token: Tokens.Heading }) {
  const content = <InlineTokens tokens={token.tokens} />;
  // Message headings sit below the page's own h1/h2, so they start at h3.
  const level = Math.min(6, token.depth + 2);
  switch (level) {
    case 3:
      return <h3>{content}</h3>;
    case 4:
      return <h4>{content}</h4>;
    case 5:
      return <h5>{content}</h5>;
    default:
      return <h6>{content}</h6>;
  }
}

function List({ token }: { token: Tokens.List }) {
  const items = token.items.map((item, index) => (
    <li key={index} className={item.task ? 'md-task' : undefined}>
      {item.task && <input type="checkbox" checked={!!item.checked} readOnly disabled aria-label={item.checked ? 'done' : 'not done'} />}
      <BlockTokens tokens={item.tokens} />
    </li>
  ));
  if (token.ordered) return <ol start={typeof token.start === 'number' ? token.start : undefined}>{items}</ol>;
  return <ul>{items}</ul>;
}

function Table({ token }: { token: Tokens.Table }) {
  return (
    <div className="md-table-wrap">
      <table>
        <thead>
          <tr>
            {token.header.map((cell, i) => (
              <th key={i} style={{ textAlign: cell.align ?? undefined }}>
                <InlineTokens tokens={cell.tokens} />
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {token.rows.map((row, r) => (
            <tr key={r}>
              {row.map((cell, c) => (
                <td key={c} style={{ textAlign: cell.align ?? undefined }}>
                  <InlineTokens tokens={cell.tokens} />
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function Block({ token }: { token: Token }): ReactNode {
  switch (token.type) {
    case 'heading':
      return <Heading token={token as Tokens.Heading} />;
    case 'paragraph':
      return <p><InlineTokens tokens={(token as Tokens.Paragraph).tokens} /></p>;
    case 'code': {
      const code = token as Tokens.Code;
      return <CodeBlock code={code.text} lang={code.lang} />;
    }
    case 'list':
      return <List token={token as Tokens.List} />;
    case 'blockquote':
      return <blockquote><BlockTokens tokens={(token as Tokens.Blockquote).tokens} /></blockquote>;
    case 'table':
      return <Table token={token as Tokens.Table} />;
    case 'hr':
      return <hr />;
    case 'space':
    case 'def':
      return null;
    case 'html':
      // Model text is never HTML to us: show it as typed.
      return <p className="md-raw">{(token as Tokens.HTML).raw}</p>;
    case 'text': {
      const text = token as Tokens.Text;
      return text.tokens ? <InlineTokens tokens={text.tokens} /> : text.text;
    }
    default:
      return <InlineTokens tokens={[token]} />;
  }
}

/** A finished block renders once: while streaming, only the block whose source changed re-renders. */
export const MemoBlock = memo(Block, (prev, next) => prev.token.raw === next.token.raw && prev.token.type === next.token.type);

export function BlockTokens({ tokens }: { tokens: Token[] }): ReactNode {
  return tokens.map((token, index) => <MemoBlock key={index} token={token} />);
}
