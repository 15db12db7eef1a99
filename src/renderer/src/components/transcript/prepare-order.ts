/**
 * The rows to prepare around the view [first, last], nearest first, out to `above` rows above and
 * `below` rows below: people scroll back up through a chat far more than down past its end, so a
 * row above counts as nearer than a row as far below (three above for one below).
 */
export function prepareOrder(first: number, last: number, count: number, above: number, below: number): number[] {
  const order: number[] = [];
  for (let k = 1; k <= Math.max(above, below * 3); k++) {
    if (k <= above && first - k >= 0) order.push(first - k);
    if (k % 3 === 0 && k / 3 <= below && last + k / 3 < count) order.push(last + k / 3);
  }
  return order;
}
