import { foldCase, matchOffsets } from '../../../../shared/text-find';

/** Text the reader does not see, or the row's controls: closed parts, screen-reader-only words, decoration, buttons. */
const UNSEEN = '[hidden], .sr-only, [aria-hidden="true"], button';

/**
 * The elements that show the text main's find counts (sessions/chat-find.ts `searchableParts`):
 * each row marks them `data-find`, one per part, so a tool card's header, a card's step list or
 * a button's words — shown, but not counted — are never marked, and the count and the marks agree.
 */
export const FIND_PART = '[data-find]';

/**
 * The DOM ranges of every match of `query` in the text the parts of an element show, part by part,
 * left to right and non-overlapping, counted as main counts them (shared/text-find.ts). A part's
 * text nodes are read as one text, so a match may cross formatting (a bold word, a link); it never
 * runs from one part into the next, as main keeps parts apart.
 */
export function matchRanges(root: Element, query: string): Range[] {
  const needle = foldCase(query);
  if (!needle) return [];
  const parts = [...(root.matches(FIND_PART) ? [root] : []), ...root.querySelectorAll(FIND_PART)];
  return parts.flatMap((part) => partRanges(part, needle));
}

function partRanges(part: Element, needle: string): Range[] {
  const doc = part.ownerDocument;
  const nodes: Text[] = [];
  const starts: number[] = [];
  let text = '';
  const walker = doc.createTreeWalker(part, NodeFilter.SHOW_TEXT, {
    acceptNode: (node) => {
      const parent = node.parentElement;
      // A part inside this one is read on its own; text outside the part's own subtree never is.
      if (!parent || parent.closest(UNSEEN) || parent.closest(FIND_PART) !== part) return NodeFilter.FILTER_REJECT;
      return NodeFilter.FILTER_ACCEPT;
    },
  });
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    nodes.push(node as Text);
    starts.push(text.length);
    text += (node as Text).data;
  }
  if (nodes.length === 0) return [];
  // The node holding offset `at`; an end offset belongs to the node it ends in.
  const locate = (at: number, end: boolean): [Text, number] => {
    let lo = 0;
    let hi = nodes.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (end ? starts[mid]! < at : starts[mid]! <= at) lo = mid;
      else hi = mid - 1;
    }
    return [nodes[lo]!, at - starts[lo]!];
  };
  return matchOffsets(foldCase(text), needle).map((at) => {
    const range = doc.createRange();
    range.setStart(...locate(at, false));
    range.setEnd(...locate(at + needle.length, true));
    return range;
  });
}
