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
  // A turn's events, in order; each is checked on its own (a bad one does not cost the others).
  z.object({ kind: z.literal('events'), events: z.array(z.unknown()) }),
]);
export type ServerFrame = z.infer<typeof ServerFrame>;
