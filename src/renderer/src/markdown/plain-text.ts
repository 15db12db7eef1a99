import { marked, type Token, type Tokens } from 'marked';

/**
 * A reply's Markdown as the plain text it shows ("Copy"): the words without the marks, blocks
 * apart by a blank line, list items and table rows one a line, code as written. It walks the
 * same tokens the transcript renders (Markdown.tsx), so raw HTML stays text as it shows there,
 * and images read as their alt text.
 */
export function markdownToPlainText(markdown: string): string {
  return blocks(marked.lexer(markdown, { gfm: true })).trim();
}

function blocks(tokens: readonly Token[], separator = '\n\n'): string {
  return tokens
    .map(block)
    .filter((text) => text !== '')
    .join(separator);
}

function block(token: Token): string {
  switch (token.type) {
    case 'space':
    case 'def':
    case 'hr':
      return '';
    case 'code':
      return (token as Tokens.Code).text;
    case 'html':
      return (token as Tokens.HTML).raw.trim();
    case 'blockquote':
      return blocks((token as Tokens.Blockquote).tokens);
    case 'list': {
      const list = token as Tokens.List;
      // A loose list's items are paragraphs apart; a tight one's are lines.
      return list.items.map((item) => blocks(item.tokens, list.loose ? '\n\n' : '\n')).join(list.loose ? '\n\n' : '\n');
    }
    case 'table': {
      const table = token as Tokens.Table;
      const row = (cells: Tokens.TableCell[]) => cells.map((cell) => inline(cell.tokens)).join('\t');
      return [row(table.header), ...table.rows.map(row)].join('\n');
    }
    default:
      return inline([token]);
  }
}

function inline(tokens: readonly Token[] | undefined): string {
  if (!tokens) return '';
  return tokens
    .map((token) => {
      switch (token.type) {
        case 'br':
          return '\n';
        case 'codespan':
        case 'escape':
          return (token as Tokens.Codespan).text;
        case 'image':
          return (token as Tokens.Image).text;
        case 'html':
          return (token as Tokens.HTML).raw;
        case 'checkbox':
          return '';
        default:
          if ('tokens' in token && token.tokens) return inline(token.tokens);
          return 'text' in token && typeof token.text === 'string' ? token.text : '';
      }
    })
    .join('');
}
