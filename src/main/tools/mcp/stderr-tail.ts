/** The last N characters a server wrote to stderr: the clue when it crashes. */
export class StderrTail {
  private text = '';
  constructor(private readonly max: number) {}

  push(chunk: Buffer | string): void {
    this.text = (this.text + chunk.toString()).slice(-this.max);
  }

  get value(): string {
    return this.text.trimEnd();
  }

  clear(): void {
    this.text = '';
  }
}
