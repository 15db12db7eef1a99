import { describe, expect, it } from 'vitest';
import { TurnBatch } from './turn-batch';

describe('TurnBatch', () => {
  it('sends a turn\'s items as one batch, in order, once the turn\'s promise jobs are done', async () => {
    const sent: number[][] = [];
    const batch = new TurnBatch<number>((items) => sent.push(items));
    batch.push(1);
    await Promise.resolve();
    batch.push(2);
    expect(sent).toEqual([]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(sent).toEqual([[1, 2]]);
    batch.push(3);
    await new Promise((resolve) => setImmediate(resolve));
    expect(sent).toEqual([[1, 2], [3]]);
  });

  it('flush sends what is held at once, and the turn then sends nothing more', async () => {
    const sent: string[][] = [];
    const batch = new TurnBatch<string>((items) => sent.push(items));
    batch.flush();
    expect(sent).toEqual([]); // nothing held: nothing sent
    batch.push('a');
    batch.flush();
    expect(sent).toEqual([['a']]);
    batch.push('b');
    await new Promise((resolve) => setImmediate(resolve));
    expect(sent).toEqual([['a'], ['b']]);
  });
});
