import hljs from 'highlight.js/lib/core';
import bash from 'highlight.js/lib/languages/bash';
import css from 'highlight.js/lib/languages/css';
import diff from 'highlight.js/lib/languages/diff';
import javascript from 'highlight.js/lib/languages/javascript';
import json from 'highlight.js/lib/languages/json';
import markdown from 'highlight.js/lib/languages/markdown';
import python from 'highlight.js/lib/languages/python';
import typescript from 'highlight.js/lib/languages/typescript';
import xml from 'highlight.js/lib/languages/xml';

// A handful of common languages keeps the bundle small; anything else shows as plain text.
hljs.registerLanguage('bash', bash);
hljs.registerLanguage('css', css);
hljs.registerLanguage('diff', diff);
hljs.registerLanguage('javascript', javascript);
hljs.registerLanguage('json', json);
hljs.registerLanguage('markdown', markdown);
hljs.registerLanguage('python', python);
hljs.registerLanguage('typescript', typescript);
hljs.registerLanguage('xml', xml);

/** One highlighted run of code: text with the hljs classes of every span around it. */
export interface HighlightNode {
  className: string | null;
  children: Array<HighlightNode | string>;
}

const ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#x27;': "'", '&#39;': "'" };

function decode(text: string): string {
  return text.replace(/&(?:amp|lt|gt|quot|#x27|#39);/g, (entity) => ENTITIES[entity] ?? entity);
}

/**
 * hljs returns escaped HTML made only of `<span class="…">` and text. Parsing that back into a
 * tree lets React build the elements, so model text is never injected as HTML.
 */
export function parseHighlighted(html: string): HighlightNode {
  const root: HighlightNode = { className: null, children: [] };
  const stack: HighlightNode[] = [root];
  for (const match of html.matchAll(/<span class="([^"]*)">|<\/span>|[^<]+|</g)) {
    const top = stack[stack.length - 1] ?? root;
    if (match[1] !== undefined) {
      const node: HighlightNode = { className: match[1], children: [] };
      top.children.push(node);
      stack.push(node);
    } else if (match[0] === '</span>') {
      if (stack.length > 1) stack.pop();
    } else {
      top.children.push(decode(match[0]));
    }
  }
  return root;
}

/** The language hljs knows by this name or alias, if any. */
export function knownLanguage(lang: string | undefined): string | null {
  const name = lang?.trim().split(/\s+/)[0]?.toLowerCase();
  return name && hljs.getLanguage(name) ? name : null;
}

/**
 * Highlighted trees by language and code: a block that renders again (the streaming tail is
 * re-lexed every frame, a chat re-opens, a message re-mounts) is not highlighted again. Oldest
 * entries go first once the cache is full; the trees are never mutated, so sharing them is safe.
 */
const CACHE_SIZE = 200;
const cache = new Map<string, HighlightNode>();

export function highlightCode(code: string, lang: string | undefined): HighlightNode | null {
  const language = knownLanguage(lang);
  if (!language) return null;
  const key = `${language}\u0000${code}`;
  const hit = cache.get(key);
  if (hit) return hit;
  const tree = parseHighlighted(hljs.highlight(code, { language, ignoreIllegals: true }).value);
  cache.set(key, tree);
  if (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value as string);
  return tree;
}
