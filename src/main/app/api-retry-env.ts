import { z } from 'zod';
import type { ApiRetryPolicy } from '../agent/model/api-retry-policy';

const Ms = z.coerce.number().int().min(0).max(600_000);
const Count = z.coerce.number().int().min(0).max(20);

/**
 * The loop's API-fault backoff from the environment: WAYPOINT_API_RETRY_BASE_MS (first backoff)
 * and WAYPOINT_API_RETRY_MAX_ATTEMPTS (retries before "Retry now"). For e2e runs and people on
 * flaky links; an invalid value is ignored with a warning rather than stopping the app.
 */
export function apiRetryFromEnv(env: NodeJS.ProcessEnv): Partial<ApiRetryPolicy> {
  const out: Partial<ApiRetryPolicy> = {};
  const read = <T extends number>(name: string, schema: z.ZodType<T>, apply: (value: T) => void) => {
    const raw = env[name];
    if (raw === undefined || raw === '') return;
    const parsed = schema.safeParse(raw);
    if (parsed.success) apply(parsed.data);
    else console.warn(`[waypoint] ignoring ${name}="${raw.slice(0, 40)}": expected a whole number.`);
  };
  read('WAYPOINT_API_RETRY_BASE_MS', Ms, (v) => (out.baseDelayMs = v));
  read('WAYPOINT_API_RETRY_MAX_ATTEMPTS', Count, (v) => (out.maxAttempts = v));
  return out;
}
