import fc from 'fast-check';
import { marked, type Token, type Tokens } from 'marked';
import { describe, expect, it } from 'vitest';
import type { Attachment } from '../../shared/attachments';
import type { SessionSummary, TranscriptItem } from '../../shared/transcript';
import type { AttachmentSource } from './attachment-blocks';
import { exportChatMarkdown } from './chat-export';

// Issue 21, item 3: a chat's export is Markdown, and every text in it came from someone else —
// the title, the user, Claude, tools, file names. Rendered by a Markdown viewer (marked, as
// GitHub-flavoured Markdown), none of it may become live HTML, and none of it may add or swallow
// the export's own structure: the title (h1) and one h2 per turn.

const at = '2026-01-01T00:00:00.000Z';
const summary = (title: string) => ({ id: 's1', title, createdAt: at, updatedAt: at }) as unknown as SessionSummary;
const noFiles: AttachmentSource = { meta: async () => null, read: async () => null, base64: async () => null };
const file = (name: string, kind: Attachment['kind'] = 'image'): Attachment => ({ id: 'a'.repeat(64), name, kind, mediaType: 'image/png', size: 3, width: 1, height: 1 });
const withFile: AttachmentSource = { meta: async () => null, read: async () => Buffer.from('abc'), base64: async () => 'YWJj' };

function transcript(user: string, claude: string, extra: string, names: string[] = []): TranscriptItem[] {
  return [
    { id: 'u', createdAt: at, kind: 'user', text: user, attachments: names.map((n) => file(n)) },
    { id: 't', createdAt: at, kind: 'thinking', text: extra, status: 'done' },
    { id: 'c', createdAt: at, kind: 'tool_call', toolUseId: 'tu', name: `run${extra}`, summary: extra, input: {}, status: 'done', result: extra },
    { id: 'a', createdAt: at, kind: 'assistant', text: claude, status: 'done' },
    { id: 'p', createdAt: at, kind: 'plan_change', text: extra, version: 1 },
    { id: 'n', createdAt: at, kind: 'notice', level: 'info', text: extra },
    { id: 'u2', createdAt: at, kind: 'user', text: 'thanks', attachments: [] },
  ] as TranscriptItem[];
}

function allTokens(markdown: string): Token[] {
  const tokens: Token[] = [];
  void marked.walkTokens(marked.lexer(markdown), (token) => void tokens.push(token));
  return tokens;
}

/** What a viewer shows as structure: live HTML, and the h1/h2 headings of the top level. */
function structure(markdown: string) {
  const top = marked.lexer(markdown);
  return {
    html: allTokens(markdown).filter((t) => t.type === 'html').map((t) => t.raw),
    // A heading as a viewer shows it: its inline tokens' text, escapes resolved.
    headings: top
      .filter((t): t is Tokens.Heading => t.type === 'heading' && (t as Tokens.Heading).depth <= 2)
      .map((t) => `${'#'.repeat(t.depth)} ${t.tokens.map((x) => ('text' in x ? x.text : x.raw)).join('')}`),
  };
}

const expectedHeadings = (title: string) => [`# ${title}`, '## You', '## Claude', '## You'];

describe('the Markdown export', () => {
  it('HTML from the user, Claude, a tool or a file name is shown as text, never live', async () => {
    const html = '<img src=x onerror="alert(1)"><script>alert(2)</script>';
    const { markdown } = await exportChatMarkdown(summary(`Title ${html}`), transcript(`Look ${html}`, `Sure.\n\n<div onclick="x()">hi</div>\n\n${html}`, html, [`pic${html}.png`]), withFile);
    expect(structure(markdown).html).toEqual([]);
    // Still readable as what was written: a viewer shows the angle brackets as text.
    expect(marked.parse(markdown) as string).toContain('&lt;script&gt;alert(2)&lt;/script&gt;');
  });

  it('a heading, a line break or brackets in a name or title adds no structure', async () => {
    const name = 'x](javascript:alert(1))\n## You\n![y';
    const { markdown } = await exportChatMarkdown(summary('Chat\n# Another title\n## You'), transcript('hi', 'ok', 'fine', [name]), withFile);
    const s = structure(markdown);
    expect(s.headings).toEqual(expectedHeadings('Chat # Another title ## You'));
    const images = allTokens(markdown).filter((t) => t.type === 'image');
    expect(images.map((t) => (t as { href: string }).href)).toEqual(['data:image/png;base64,YWJj']);
    expect(allTokens(markdown).filter((t) => t.type === 'link')).toEqual([]);
  });

  it("Claude's own headings and an unclosed code fence neither forge a turn nor swallow the rest", async () => {
    const { markdown } = await exportChatMarkdown(summary('T'), transcript('```\nunclosed', '## You\nnow say yes\n\nYou\n---\n\n~~~\nopen', '````'), noFiles);
    expect(structure(markdown).headings).toEqual(expectedHeadings('T'));
  });

  it('code stays exactly as written, angle brackets included, and Markdown formatting stays', async () => {
    const claude = 'Use `Array<string>` here:\n\n```ts\nconst a: Array<string> = [];\nif (a < b && c > d) {}\n```\n\n**Bold** and a [link](https://example.com).';
    const { markdown } = await exportChatMarkdown(summary('T'), transcript('hi', claude, 'x'), noFiles);
    expect(markdown).toContain('```ts\nconst a: Array<string> = [];\nif (a < b && c > d) {}\n```');
    expect(markdown).toContain('`Array<string>`');
    expect(markdown).toContain('**Bold** and a [link](https://example.com).');
  });

  it('any mix of HTML, fences, headings and escapes: no live HTML, the turns as written', async () => {
    const piece = fc.constantFrom(
      '<img src=x onerror=alert(1)>', '<script>', '</div>', '<!--', '-->', '<?php ', '<![CDATA[', '<a href="x">', '<https://e.com>',
      '`', '``', '```', '~~~', '\n', '\n\n', '    ', '- ', '> ', '1. ', '## You', '# T', '\n---\n', '\n===\n', '\\', '<', '>', 'a', ' ', '[x](y)', '| a |\n|---|\n', '&lt;', '*', '_',
    );
    const text = fc.array(piece, { maxLength: 14 }).map((p) => p.join(''));
    await fc.assert(
      fc.asyncProperty(text, text, text, text, text, async (title, user, claude, extra, name) => {
        const { markdown } = await exportChatMarkdown(summary(title || 'T'), transcript(user, claude, extra, [`${name}.png`]), withFile);
        const s = structure(markdown);
        expect(s.html).toEqual([]);
        expect(s.headings.slice(1)).toEqual(['## You', ...(claude.trim() ? ['## Claude'] : []), '## You']);
        expect(s.headings[0]).toMatch(/^# /);
      }),
      { numRuns: 300 },
    );
  });
});

describe('an attached PDF in the export', () => {
  it('counts its pages in words: "1 page", "3 pages"', async () => {
    const pdf = (pages: number): Attachment => ({ id: 'b'.repeat(64), name: `p${pages}.pdf`, kind: 'pdf', mediaType: 'application/pdf', size: 2048, pages });
    const items = [{ id: 'u', createdAt: at, kind: 'user', text: 'read these', attachments: [pdf(1), pdf(3)] }] as TranscriptItem[];
    const { markdown } = await exportChatMarkdown(summary('PDFs'), items, withFile);
    expect(markdown).toContain('(PDF, 1 page, ');
    expect(markdown).toContain('(PDF, 3 pages, ');
  });
});

describe('web search in the export', () => {
  it("lists a search's results and a reply's sources as links, web titles as text, and no link for a URL that is not http(s)", async () => {
    const pages = [
      { title: 'Node <b>20</b> [is](out)', url: 'https://nodejs.org/en/blog (v20)' },
      { title: 'Sneaky', url: 'javascript:alert(1)' },
    ];
    const items = [
      { id: 'u', createdAt: at, kind: 'user', text: 'Is Node 20 out?' },
      { id: 'c', createdAt: at, kind: 'tool_call', toolUseId: 'srvtoolu_1', name: 'web_search', summary: 'Searched the web for "node 20"', input: { query: 'node 20' }, status: 'done', result: '2 results', webResults: pages },
      { id: 'a', createdAt: at, kind: 'assistant', text: 'Yes.', status: 'done', sources: [pages[0]] },
    ] as TranscriptItem[];
    const { markdown } = await exportChatMarkdown(summary('Search'), items, noFiles);
    const links = allTokens(markdown).filter((t): t is Tokens.Link => t.type === 'link');
    expect(links.map((l) => l.href)).toEqual(['https://nodejs.org/en/blog%20%28v20%29', 'https://nodejs.org/en/blog%20%28v20%29']);
    // The web's title is the link's text, shown as written.
    expect((marked.parse(markdown) as string).match(/>Node &lt;b&gt;20&lt;\/b&gt; \[is\]\(out\)<\/a>/g)).toHaveLength(2);
    expect(markdown).toContain('**Sources**');
    expect(markdown).toContain('Sneaky');
    expect(structure(markdown)).toEqual({ html: [], headings: expectedHeadings('Search').slice(0, 3) });
  });
});
