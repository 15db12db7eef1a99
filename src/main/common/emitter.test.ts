import { describe, expect, it, vi } from 'vitest';
import { DisposableStore, Emitter } from './emitter';

describe('Emitter', () => {
  it('delivers to subscribers until they dispose', () => {
    const emitter = new Emitter<number>();
    const seen: number[] = [];
    const sub = emitter.event((n) => seen.push(n));
    emitter.fire(1);
    sub.dispose();
    emitter.fire(2);
    expect(seen).toEqual([1]);
    expect(emitter.listenerCount).toBe(0);
  });

  it('keeps delivering when one listener throws', () => {
    const emitter = new Emitter<string>();
    const spy = vi.spyOn(console, 'error').mockImplementation(() => {});
    const seen: string[] = [];
    emitter.event(() => {
      throw new Error('boom');
    });
    emitter.event((s) => seen.push(s));
    emitter.fire('x');
    expect(seen).toEqual(['x']);
    expect(spy).toHaveBeenCalledOnce();
    spy.mockRestore();
  });

  it('DisposableStore disposes everything once, in reverse order', () => {
    const order: number[] = [];
    const store = new DisposableStore();
    store.add({ dispose: () => order.push(1) });
    store.add({ dispose: () => order.push(2) });
    store.dispose();
    store.dispose();
    expect(order).toEqual([2, 1]);
  });
});
