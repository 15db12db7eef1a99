/** VS Code style events: services own state and emit; subscribers get a Disposable back. */

export interface Disposable {
  dispose(): void;
}

/** A Disposable whose cleanup takes time (flushing logs, ending processes): await it. */
export interface AsyncDisposable {
  dispose(): Promise<void>;
}

export function toDisposable(fn: () => void): Disposable {
  let done = false;
  return {
    dispose() {
      if (!done) {
        done = true;
        fn();
      }
    },
  };
}

export type Listener<T> = (value: T) => void;

export class Emitter<T> {
  private listeners = new Set<Listener<T>>();

  /** Subscribe; the returned Disposable unsubscribes. */
  readonly event = (listener: Listener<T>): Disposable => {
    this.listeners.add(listener);
    return toDisposable(() => this.listeners.delete(listener));
  };

  fire(value: T): void {
    // Copy so a listener that unsubscribes during delivery doesn't skip its neighbour.
    for (const listener of [...this.listeners]) {
      try {
        listener(value);
      } catch (error) {
        // One broken subscriber must not stop the others (or the service that fired).
        console.error('[waypoint] event listener failed:', error);
      }
    }
  }

  get listenerCount(): number {
    return this.listeners.size;
  }

  dispose(): void {
    this.listeners.clear();
  }
}

export class DisposableStore implements Disposable {
  private items: Disposable[] = [];
  add<D extends Disposable>(item: D): D {
    this.items.push(item);
    return item;
  }
  dispose(): void {
    for (const item of this.items.splice(0).reverse()) item.dispose();
  }
}
