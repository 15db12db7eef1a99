import { foldCase, matchOffsets } from '../../../../shared/text-find';

/** Text the reader does not see: closed parts, screen-reader-only words, decoration. */
const UNSEEN = '[hidden], .sr-only, [aria-hidden="true"]';

/**
 * The DOM ranges of every match of `query` in the text an element shows, left to right and
 * non-overlapping, counted as main counts them (shared/text-find.ts). The element's text nodes
 * are read as one text, so a match may cross formatting (a bold word, a link).
 */
export function matchRanges(root: Element, query: string): Range[] {
  const needle = foldCase(query);
  if (!needle) return [];
  const doc = root.ownerDocument;
  const nodes: Text[] = [];
  const starts: number[] = [];
  let text = '';
  const walker = doc.createTreeWalker(root, NodeFilter.SHOW_TEXT, {
    acceptNode: (node) => (node.parentElement?.closest(UNSEEN) ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_ACCEPT),
  });
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    nodes.push(node as Text);
    starts.push(text.length);
    text += (node as Text).data;
  }
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
