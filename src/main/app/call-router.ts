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

/**
 * Which connection a call came over, when a shell has several (a web-shell socket), so what a
 * connection started can end with it (uploads). Never a credential: a shell picks it at random.
 */
export type ClientId = string;

/** One handler per call of the contract; inputs arrive already parsed. */
export type CallHandlers = {
  [N in CallName]: (input: z.output<Calls[N]['input']>, client?: ClientId) => Promise<CallOutput<N>> | CallOutput<N>;
};

export type CallRouter = (name: unknown, input: unknown, client?: ClientId) => Promise<CallResult<unknown>>;

/**
 * The boundary where every call enters main, from either shell: the name must be in the
 * contract and the input must parse, or the call is refused with a clear error and nothing
 * changes. Handler failures become results, never unhandled rejections across IPC.
 */
export function createCallRouter(handlers: CallHandlers): CallRouter {
  return async (name, input, client) => {
    if (!isCallName(name)) {
      return { ok: false, error: { code: 'unknown_call', message: `Unknown call "${String(name).slice(0, 100)}".` } };
    }
    const parsed = calls[name].input.safeParse(input ?? {});
    if (!parsed.success) {
      return { ok: false, error: { code: 'invalid_input', message: describeZodError(parsed.error) } };
    }
    try {
      const handler = handlers[name] as (input: unknown, client?: ClientId) => unknown;
      const value = await handler(parsed.data, client);
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
