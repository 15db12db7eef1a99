import { z } from 'zod';
import { StoredMeta } from './attachment-store';

/**
 * What main and the check worker (check-worker.ts) say to each other, validated on arrival on
 * both sides: a file to check, and the answer — the prepared file, or a refusal in words.
 */

/** Bytes as a structured clone delivers them (a Buffer arrives as a plain Uint8Array). */
const Bytes = z.custom<Uint8Array>((value) => value instanceof Uint8Array, { error: 'Not bytes.' });

export const CheckRequest = z
  .object({
    /** 'file': anything attached (sniffed); 'image': an image a tool returned. */
    kind: z.enum(['file', 'image']),
    name: z.string().min(1).max(255),
    bytes: Bytes,
  })
  .strict();
export type CheckRequest = z.infer<typeof CheckRequest>;

export const CheckReply = z.discriminatedUnion('outcome', [
  /** `bytes` null: the file goes as it came (main keeps its own copy, none travels back). */
  z.object({ outcome: z.literal('prepared'), meta: StoredMeta, bytes: Bytes.nullable() }).strict(),
  z.object({ outcome: z.literal('refused'), message: z.string().min(1) }).strict(),
  z.object({ outcome: z.literal('failed'), message: z.string() }).strict(),
]);
export type CheckReply = z.infer<typeof CheckReply>;
