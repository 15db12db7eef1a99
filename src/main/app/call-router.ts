import type { z } from 'zod';
import {
  calls,
  describeZodError,
  isCallName,
  type CallName,
  type CallOutput,
  type CallResult,
  type Calls,
} from '../../shared/contract';
import { UserFacingError } from '../common/errors';

/** One handler per call of the contract; inputs arrive already parsed. */
export type CallHandlers = {
  [N in CallName]: (input: z.output<Calls[N]['input']>) => Promise<CallOutput<N>> | CallOutput<N>;
};

export type CallRouter = (name: unknown, input: unknown) => Promise<CallResult<unknown>>;

/**
 * The boundary where every call enters main, from either shell: the name must be in the
 * contract and the input must parse, or the call is refused with a clear error and nothing
 * changes. Handler failures become results, never unhandled rejections across IPC.
 */
export function createCallRouter(handlers: CallHandlers): CallRouter {
  return async (name, input) => {
    if (!isCallName(name)) {
      return { ok: false, error: { code: 'unknown_call', message: `Unknown call "${String(name).slice(0, 100)}".` } };
    }
    const parsed = calls[name].input.safeParse(input ?? {});
    if (!parsed.success) {
      return { ok: false, error: { code: 'invalid_input', message: describeZodError(parsed.error) } };
    }
    try {
      const handler = handlers[name] as (input: unknown) => unknown;
      const value = await handler(parsed.data);
      return { ok: true, value };
    } catch (error) {
      if (error instanceof UserFacingError) return { ok: false, error: { code: error.code, message: error.message } };
      console.error(`[waypoint] call ${name} failed:`, error);
      return {
        ok: false,
        error: { code: 'internal', message: `Waypoint hit an internal error in "${name}". Details are in the log.` },
      };
    }
  };
}
