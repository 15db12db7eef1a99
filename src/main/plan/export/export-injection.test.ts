import { marked, type Token } from 'marked';
import { describe, expect, it } from 'vitest';
import type { Dialect, Plan, PlanStep } from '../../../shared/plan';
import { computeSummary } from '../engine/summary';
import { planToMarkdown } from '../plan-markdown';
import { exportMarkdown } from './export-markdown';

/**
 * Claude's and the user's words in an exported plan (and in the WBS dialect's WBS.md) are text:
 * a title with raw HTML, or a line break followed by "# heading", must not add a heading, a list,
 * a tag or a quote to the file. The check is structural: a plan full of hostile text reads, to
 * `marked`, exactly as the same plan with plain words does.
 */
const HOSTILE = [
  'Fix <img src=x onerror=alert(1)> now\n# Injected heading\n- injected item',
  '# Starts like a heading',
  '- starts like an item',
  '1. starts like a numbered item',
  '> starts like a quote',
  '```js\nopened fence',
  '<script>alert(1)</script>',
  '---',
  '[ref]: https://example.com/swallowed',
  'a `x` then `<b>bold</b>',
  'ends with a backslash\\',
];

type Texts = (i: number) => string;

function planOf(dialect: Dialect, text: Texts): Plan {
  const steps: PlanStep[] = [0, 1, 2, 3, 4].map((i) => ({
    id: i + 1,
    label: i === 0 ? text(0) : undefined,
    title: text(i + 1),
    status: (['completed', 'in_progress', 'failed', 'skipped', 'pending'] as const)[i]!,
    dependsOn: i > 0 ? [i] : [],
    parentId: i === 4 ? 4 : undefined,
    description: text(i + 2),
    successCriteria: text(i + 3),
    toolsToUse: [text(i + 4)],
    notes: [text(i + 5)],
    attempts: [],
    result: i === 0 ? text(6) : undefined,
    reason: i > 1 ? text(i + 6) : undefined,
  }));
  return {
    id: 'p1',
    dialect,
    goal: text(7),
    explanation: text(8),
    status: 'cancelled',
    steps,
    version: 3,
    createdAt: '2025-01-19T14:30:00.000Z',
    updatedAt: '2025-01-19T14:35:00.000Z',
    summary: computeSummary(steps),
    verificationApproach: text(9),
    rollbackStrategy: text(10),
    completion: { status: 'failed', summary: text(0), issues: [text(1), text(2)], recommendations: text(3) },
    undone: { at: '2025-01-19T15:00:00.000Z', restored: [text(4)], deleted: [text(5)], skipped: [text(6)] },
  };
}

const BLOCKS = new Set(['heading', 'paragraph', 'list', 'list_item', 'blockquote', 'code', 'html', 'hr', 'table', 'def', 'space']);

/** The block structure marked reads (and any HTML, block or inline), with the heading texts. */
function shape(markdown: string): string[] {
  const out: string[] = [];
  const visit = (tokens: Token[]) => {
    for (const token of tokens) {
      if (BLOCKS.has(token.type)) out.push(token.type === 'heading' ? `heading ${'depth' in token ? token.depth : ''}` : token.type);
      const inner = token as { tokens?: Token[]; items?: Token[] };
      if (inner.items) visit(inner.items);
      if (inner.tokens) visit(inner.tokens);
    }
  };
  const tokens = marked.lexer(markdown);
  visit(tokens);
  const links = Object.keys(tokens.links ?? {});
  if (links.length) out.push(`link definitions: ${links.join(',')}`);
  return out;
}

const plain: Texts = (i) => `plain words ${i}`;
const hostile: Texts = (i) => HOSTILE[i % HOSTILE.length]!;

describe('plan export: outside text stays text', () => {
  for (const dialect of ['structured', 'checklist', 'session', 'wbs'] as const) {
    it(`${dialect}: hostile titles, reasons and summaries give the structure plain words give, with no HTML`, () => {
      const expected = shape(exportMarkdown(planOf(dialect, plain)));
      for (let shift = 0; shift < HOSTILE.length; shift++) {
        const markdown = exportMarkdown(planOf(dialect, (i) => hostile(i + shift)));
        expect(shape(markdown), `${dialect}, shift ${shift}:\n${markdown}`).toEqual(expected);
      }
    });
  }

  it("WBS.md (the WBS dialect's own file) likewise", () => {
    const expected = shape(planToMarkdown(planOf('wbs', plain)));
    for (let shift = 0; shift < HOSTILE.length; shift++) {
      const markdown = planToMarkdown(planOf('wbs', (i) => hostile(i + shift)));
      expect(shape(markdown), `shift ${shift}:\n${markdown}`).toEqual(expected);
    }
  });

  it('the words are still there for a reader: the escaped title shows as written, on one line', () => {
    const markdown = exportMarkdown(planOf('checklist', (i) => (i === 1 ? 'Fix <img src=x> and `Result<T>`\n# Not a heading' : plain(i))));
    const html = marked.parse(markdown, { async: false });
    expect(html).toContain('Fix &lt;img src=x&gt; and <code>Result&lt;T&gt;</code> # Not a heading');
  });
});
