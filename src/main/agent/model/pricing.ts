/**
 * Per-million-token list prices by model family (USD, standard tier). Prompt caching: a cache
 * write costs 1.25× the input price (5-minute ephemeral cache), a cache read 0.1×.
 * Unknown families are priced as Sonnet, the default model's family, rather than as free.
 */
export interface ModelPrice {
  family: 'opus' | 'sonnet' | 'haiku';
  inputPerMTok: number;
  outputPerMTok: number;
}

const PRICES: Record<ModelPrice['family'], ModelPrice> = {
  opus: { family: 'opus', inputPerMTok: 5, outputPerMTok: 25 },
  sonnet: { family: 'sonnet', inputPerMTok: 3, outputPerMTok: 15 },
  haiku: { family: 'haiku', inputPerMTok: 1, outputPerMTok: 5 },
};

export const CACHE_WRITE_FACTOR = 1.25;
export const CACHE_READ_FACTOR = 0.1;
/** The server-side web search tool is billed per search: $10 per 1,000, whatever the model. */
export const WEB_SEARCH_USD = 10 / 1000;

export function priceFor(model: string): ModelPrice {
  const id = model.toLowerCase();
  if (id.includes('opus')) return PRICES.opus;
  if (id.includes('haiku')) return PRICES.haiku;
  return PRICES.sonnet;
}

export interface TokenCounts {
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  /** Web searches the request made (billed per search, not per token). */
  webSearches?: number;
}

/** The dollar cost of one request's tokens (and web searches) for a model. */
export function costUsd(model: string, tokens: TokenCounts): number {
  const price = priceFor(model);
  const input = price.inputPerMTok / 1_000_000;
  const output = price.outputPerMTok / 1_000_000;
  return (
    tokens.inputTokens * input +
    tokens.cacheWriteTokens * input * CACHE_WRITE_FACTOR +
    tokens.cacheReadTokens * input * CACHE_READ_FACTOR +
    tokens.outputTokens * output +
    (tokens.webSearches ?? 0) * WEB_SEARCH_USD
  );
}

export { formatUsd } from '../../../shared/usage';
