import { MAX_TITLE_LENGTH } from './engine-types';

export type Cleaned = { ok: true; value: string } | { ok: false; error: string };

/** Titles are trimmed, non-empty and at most 500 characters (docs/contract.md §2). */
export function cleanTitle(raw: string, what: string, max = MAX_TITLE_LENGTH): Cleaned {
  const value = raw.trim();
  if (value.length === 0) return { ok: false, error: `${what} is empty; give it a short, non-empty title.` };
  if (value.length > max) {
    return {
      ok: false,
      error: `${what} is ${value.length} characters long; the limit is ${max}. Shorten it and keep details out of the title.`,
    };
  }
  return { ok: true, value };
}

/** Optional free text (results, reasons, notes): trimmed, empty becomes undefined, capped. */
export function cleanText(raw: string | undefined, max: number): string | undefined {
  if (raw === undefined) return undefined;
  const value = raw.trim();
  if (value.length === 0) return undefined;
  return value.length > max ? `${value.slice(0, max - 1)}…` : value;
}
