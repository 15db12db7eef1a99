import type { ColourRun } from './code-colours';

/**
 * The colours of highlighted code painted with the CSS Custom Highlight API instead of a span per
 * token: the block stays one text node, so mounting it costs the browser no element, style, layout
 * or text shaping per token. An 18-line TypeScript block is ≈ 280 spans, most of a reply row's
 * elements; six such blocks took 51 ms to append and paint as spans against 14 ms as highlights
 * (best of 40 in Chromium, bench/README.md). A highlight can set colours but not font-style, so
 * comments are no longer italic.
 */
export function highlightRegistry(): HighlightRegistry | null {
  return typeof CSS !== 'undefined' && 'highlights' in CSS && typeof Highlight !== 'undefined' && typeof StaticRange !== 'undefined' ? CSS.highlights : null;
}

/** Paints the runs over `text` (the block's one text node); returns what removes them again. */
function paintRuns(registry: HighlightRegistry, text: Text, runs: readonly ColourRun[]): () => void {
  const added: Array<[Highlight, StaticRange]> = [];
  for (const run of runs) {
    const name = `hl-${run.colour}`;
    let highlight = registry.get(name);
    if (!highlight) {
      highlight = new Highlight();
      highlight.priority = -1; // under find in chat's marks (find.css), which set colours too
      registry.set(name, highlight);
    }
    const range = new StaticRange({ startContainer: text, startOffset: run.start, endContainer: text, endOffset: run.end });
    highlight.add(range);
    added.push([highlight, range]);
  }
  return () => {
    for (const [highlight, range] of added) highlight.delete(range);
  };
}

/**
 * Ranges cost the browser on every frame that lays out or scrolls the page, for every range it
 * holds (≈ 10 µs each: 2,000 ranges took ≈ 15-20 ms a frame while a reply streamed), so a code
 * block keeps its ranges only while it is near the view: within a viewport's height of the
 * scrolling log it sits in (or of the page, outside one). A long streamed reply would otherwise
 * hold thousands.
 */
const NEAR = '100% 0px';
const pageObserver: { current: IntersectionObserver | null } = { current: null };
const logObservers = new WeakMap<Element, IntersectionObserver>();
const onNear = new WeakMap<Element, (near: boolean) => void>();

function observerFor(root: Element | null): IntersectionObserver {
  const make = () => new IntersectionObserver((entries) => entries.forEach((entry) => onNear.get(entry.target)?.(entry.isIntersecting)), { root, rootMargin: NEAR });
  if (!root) return (pageObserver.current ??= make());
  let observer = logObservers.get(root);
  if (!observer) logObservers.set(root, (observer = make()));
  return observer;
}

/**
 * Paints the runs over the code element's text now (it was just mounted: near the view, most
 * likely) and from then on only while the element is near the view. Returns what stops it and
 * removes them.
 */
export function paintWhileNear(registry: HighlightRegistry, code: Element, text: Text, runs: readonly ColourRun[]): () => void {
  let unpaint: (() => void) | null = paintRuns(registry, text, runs);
  if (typeof IntersectionObserver === 'undefined') return () => unpaint?.();
  const observer = observerFor(code.closest('[role="log"]'));
  onNear.set(code, (near) => {
    if (near && !unpaint) unpaint = paintRuns(registry, text, runs);
    else if (!near && unpaint) {
      unpaint();
      unpaint = null;
    }
  });
  observer.observe(code);
  return () => {
    observer.unobserve(code);
    onNear.delete(code);
    unpaint?.();
  };
}

