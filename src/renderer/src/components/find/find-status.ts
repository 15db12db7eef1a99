import type { FindResult } from '../../store/find-slice';

/** The bar's polite status: "3 of 12", "No matches", or nothing while there is no query. */
export function findStatus(result: FindResult | null, index: number, error: string | null): string {
  if (error) return error;
  if (!result) return '';
  if (result.total === 0) return 'No matches';
  const position = `${(index + 1).toLocaleString('en-US')} of ${result.total.toLocaleString('en-US')}`;
  return result.truncated ? `${position} (the first ${result.matches.length.toLocaleString('en-US')} can be visited)` : position;
}
