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
import { SizedLru } from '../lib/sized-lru';

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
 * hljs's HTML by language and code, so a block that renders again (the streaming tail is re-lexed
 * every frame, a chat re-opens, a row scrolls back into view) is not highlighted again: that was
 * the largest part of mounting a row while scrolling a long chat. Bounded by size: the HTML,
 * measured at ≈ 4.7 characters per character of TypeScript, costs 1 byte a character once flat
 * (2 when it holds characters beyond Latin-1); hljs builds it as a rope of ≈ 6 bytes a character.
 * The parsed tree is not what is kept: with its objects and arrays it measured ≈ 34 bytes per
 * character of code, the HTML ≈ 5 (key included), and parsing it again is cheap.
 * 12 MB holds the code of a 300-turn working chat (≈ 5 MB) twice over.
 */
export const HIGHLIGHT_CACHE_BYTES = 12 * 1024 * 1024;
const cache = new SizedLru<string, string>(HIGHLIGHT_CACHE_BYTES);
const ENTRY_OVERHEAD = 100; // the map entry, the list node and two string headers, roughly
const WIDE = /[\u0100-\uffff]/; // a character beyond Latin-1: V8 stores the string two bytes a character

/** hljs's HTML for the code, from the cache or made and kept there. */
function highlightedHtml(language: string, code: string): string {
  const key = `${language}\u0000${code}`;
  const cached = cache.get(key);
  if (cached !== undefined) return cached;
  const html = hljs.highlight(code, { language, ignoreIllegals: true }).value;
  // Reading the string with a regular expression flattens it in place: the rope is dropped here.
  const wide = WIDE.test(html);
  cache.set(key, html, (key.length + html.length) * (wide ? 2 : 1) + ENTRY_OVERHEAD);
  return html;
}

export function highlightCode(code: string, lang: string | undefined): HighlightNode | null {
  const language = knownLanguage(lang);
  return language ? parseHighlighted(highlightedHtml(language, code)) : null;
}

/** Whether highlighting the code costs nothing now: the cache holds it, or hljs does not know the language. */
export function highlightIsReady(code: string, lang: string | undefined): boolean {
  const language = knownLanguage(lang);
  return !language || cache.get(`${language}\u0000${code}`) !== undefined;
}

/** Highlights the code into the cache only (idle work ahead of a mount: see prepare-markdown.ts). */
export function prepareHighlight(code: string, lang: string | undefined): void {
  const language = knownLanguage(lang);
  if (language) highlightedHtml(language, code);
}
