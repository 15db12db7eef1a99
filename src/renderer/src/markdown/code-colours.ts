import type { HighlightNode } from './highlight';

/**
 * Highlighted code as coloured runs of its text, for the CSS Custom Highlight API
 * (code-highlights.ts) to paint. Each hljs scope maps to one of the theme's colours
 * (styles/highlight.css); text inside a scope without a colour takes its nearest coloured
 * ancestor's, as CSS inheritance did for the spans.
 */
const COLOUR: Record<string, string> = {
  'hljs-comment': 'comment',
  'hljs-quote': 'comment',
  'hljs-keyword': 'keyword',
  'hljs-selector-tag': 'keyword',
  'hljs-doctag': 'keyword',
  'hljs-string': 'string',
  'hljs-regexp': 'string',
  'hljs-number': 'number',
  'hljs-literal': 'number',
  'hljs-variable': 'number',
  'hljs-template-variable': 'number',
  'hljs-attr': 'number',
  'hljs-attribute': 'number',
  'hljs-title': 'title',
  'hljs-section': 'title',
  'hljs-name': 'title',
  'hljs-selector-id': 'title',
  'hljs-selector-class': 'title',
  'hljs-built_in': 'builtin',
  'hljs-type': 'builtin',
  'hljs-symbol': 'builtin',
  'hljs-bullet': 'builtin',
  'hljs-deletion': 'deletion',
  'hljs-addition': 'addition',
};

export interface ColourRun {
  start: number;
  end: number;
  colour: string;
}

function colourOf(className: string | null): string | undefined {
  if (!className) return undefined;
  for (const name of className.split(' ')) {
    const colour = COLOUR[name];
    if (colour) return colour;
  }
  return undefined;
}

/** The coloured runs of the code the tree holds, by character offset, adjacent runs of one colour merged. */
export function colourRuns(tree: HighlightNode): ColourRun[] {
  const runs: ColourRun[] = [];
  let at = 0;
  const walk = (node: HighlightNode, inherited: string | undefined) => {
    const colour = colourOf(node.className) ?? inherited;
    for (const child of node.children) {
      if (typeof child !== 'string') {
        walk(child, colour);
        continue;
      }
      const end = at + child.length;
      if (colour && end > at) {
        const last = runs[runs.length - 1];
        if (last && last.end === at && last.colour === colour) last.end = end;
        else runs.push({ start: at, end, colour });
      }
      at = end;
    }
  };
  walk(tree, undefined);
  return runs;
}
