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
