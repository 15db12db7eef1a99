import fs from 'node:fs/promises';

/** Binary detection the way git and ripgrep do it: a NUL byte or invalid UTF-8 up front. */
export const SNIFF_BYTES = 8 * 1024;

export function looksBinary(head: Uint8Array): boolean {
  const sample = head.subarray(0, SNIFF_BYTES);
  if (sample.includes(0)) return true;
  try {
    // stream: true tolerates a multi-byte character cut at the end of the sample.
    new TextDecoder('utf-8', { fatal: true }).decode(sample, { stream: true });
    return false;
  } catch {
    return true;
  }
}

/** Read the first bytes of a file without loading all of it. */
export async function readHead(file: string, bytes = SNIFF_BYTES): Promise<Uint8Array> {
  const handle = await fs.open(file, 'r');
  try {
    const buffer = new Uint8Array(bytes);
    const { bytesRead } = await handle.read(buffer, 0, bytes, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}
