/** Keeps the last `cap` bytes of a stream (the end of a build log is what matters) and the total. */
export class OutputTail {
  private chunks: Buffer[] = [];
  private kept = 0;
  total = 0;

  constructor(private readonly cap: number) {}

  push(chunk: Buffer): void {
    this.total += chunk.length;
    this.chunks.push(chunk);
    this.kept += chunk.length;
    // Trim lazily (at 2x) so a chatty process doesn't cost a concat per chunk.
    if (this.kept > this.cap * 2) this.trim();
  }

  private trim(): void {
    const all = Buffer.concat(this.chunks);
    const tail = all.subarray(Math.max(0, all.length - this.cap));
    this.chunks = [tail];
    this.kept = tail.length;
  }

  /** The kept text, with a notice when the start was dropped. */
  text(): string {
    this.trim();
    const body = Buffer.concat(this.chunks).toString('utf8');
    if (this.total <= this.cap) return body;
    return `[… ${(this.total - this.cap).toLocaleString('en-US')} earlier bytes not shown; output truncated to the last ${this.cap.toLocaleString('en-US')} bytes]\n${body}`;
  }
}
