import { z } from 'zod';

/**
 * The shape of a frame from the web shell, checked before anything reads it. The event and
 * the call's value are validated again against the contract by the client.
 */
export const ServerFrame = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('result'),
    id: z.number().int().nonnegative(),
    result: z.union([
      z.object({ ok: z.literal(true), value: z.unknown() }),
      z.object({ ok: z.literal(false), error: z.unknown() }),
    ]),
  }),
  z.object({ kind: z.literal('event'), event: z.unknown() }),
]);
export type ServerFrame = z.infer<typeof ServerFrame>;
