import type { FindResult } from '../../store/find-slice';
import { formatCount } from '../../../../shared/numbers';

/** The bar's polite status: "3 of 12", "No matches", or nothing while there is no query. */
export function findStatus(result: FindResult | null, index: number, error: string | null): string {
  if (error) return error;
  if (!result) return '';
  if (result.total === 0) return 'No matches';
  const position = `${formatCount(index + 1)} of ${formatCount(result.total)}`;
  return result.truncated ? `${position} (the first ${formatCount(result.matches.length)} can be visited)` : position;
}
