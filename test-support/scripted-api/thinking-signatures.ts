import { createHmac, randomBytes } from 'node:crypto';

/**
 * Signatures for the thinking blocks the scripted server sends, like the real API's: opaque to
 * the client, checked when the blocks come back. A block whose text or signature changed, or a
 * redacted block whose data changed, no longer verifies. Each one also carries the digest of the
 * prefix it was produced after (system, tools and everything before it), which models with
 * preserved thinking compare on replay (thinking-binding.ts).
 */
const DIGEST = 32;
const MAC = 32;
const NONCE = 8;
const SEALED = 48;

export class ThinkingSigner {
  private readonly key = randomBytes(32);

  private mac(kind: string, digest: Buffer, body: Buffer | string): Buffer {
    return createHmac('sha256', this.key).update(`${kind}\0`).update(digest).update(body).digest();
  }

  sign(thinking: string, prefixDigest: Buffer = Buffer.alloc(DIGEST)): string {
    return Buffer.concat([randomBytes(NONCE), prefixDigest, this.mac('thinking', prefixDigest, thinking)]).toString('base64');
  }

  /** The prefix digest the signature was made with, or null when the text or signature was changed. */
  open(thinking: string, signature: string): Buffer | null {
    const raw = Buffer.from(signature, 'base64');
    if (raw.length !== NONCE + DIGEST + MAC) return null;
    const digest = raw.subarray(NONCE, NONCE + DIGEST);
    return raw.subarray(NONCE + DIGEST).equals(this.mac('thinking', digest, thinking)) ? digest : null;
  }

  verify(thinking: string, signature: string): boolean {
    return this.open(thinking, signature) !== null;
  }

  /** An encrypted stand-in: random "reasoning" sealed with the key. */
  redacted(prefixDigest: Buffer = Buffer.alloc(DIGEST)): string {
    const body = randomBytes(SEALED);
    return Buffer.concat([body, prefixDigest, this.mac('redacted', prefixDigest, body)]).toString('base64');
  }

  openRedacted(data: string): Buffer | null {
    const raw = Buffer.from(data, 'base64');
    if (raw.length !== SEALED + DIGEST + MAC) return null;
    const digest = raw.subarray(SEALED, SEALED + DIGEST);
    return raw.subarray(SEALED + DIGEST).equals(this.mac('redacted', digest, raw.subarray(0, SEALED))) ? digest : null;
  }

  verifyRedacted(data: string): boolean {
    return this.openRedacted(data) !== null;
  }
}
