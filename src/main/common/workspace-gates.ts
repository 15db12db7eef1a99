import path from 'node:path';

/** The commit a worktree is being checked out from, and where. */
export interface CheckoutSource {
  /** The repository (whose objects hold the commit). */
  repo: string;
  commit: string;
  /** The worktree's folder, being written. */
  root: string;
}

interface Gate {
  source: CheckoutSource;
  /** Null once the checkout is done; why it failed otherwise. */
  done: Promise<string | null>;
  settled: boolean;
}

const isInside = (outer: string, inner: string): boolean => {
  const rel = path.relative(outer, inner);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
};

/**
 * Worktrees whose checkout is still running (docs/architecture.md "Worktrees and Changes"): a
 * chat's first request goes out meanwhile, reading what it needs of the workspace from the
 * commit (`pending`), while every tool call, command and the Changes view waits here (`wait`)
 * until the tree is whole — or hears why it never will be.
 */
export class WorkspaceGates {
  private readonly gates = new Map<string, Gate>();

  /** `checkout` settles when the worktree at `source.root` is whole (or failed, and is gone). */
  hold(source: CheckoutSource, checkout: Promise<unknown>, failure: (error: unknown) => string): void {
    const gate: Gate = {
      source,
      settled: false,
      done: checkout.then(
        () => null,
        (error: unknown) => failure(error),
      ),
    };
    this.gates.set(source.root, gate);
    void gate.done.then((why) => {
      gate.settled = true;
      // A failed checkout keeps its gate: a call of the run that began in it gets the reason too.
      if (why === null && this.gates.get(source.root) === gate) this.gates.delete(source.root);
    });
  }

  private gateOf(folder: string): Gate | null {
    for (const gate of this.gates.values()) if (isInside(gate.source.root, folder)) return gate;
    return null;
  }

  /** The checkout `folder` is part of, while it runs: read from its commit instead. */
  pending(folder: string | null): CheckoutSource | null {
    const gate = folder ? this.gateOf(folder) : null;
    return gate && !gate.settled ? gate.source : null;
  }

  /** Null at once for a folder whose tree is whole; else when its checkout ends, with why it failed. */
  wait(folder: string | null): Promise<string | null> | null {
    const gate = folder ? this.gateOf(folder) : null;
    if (!gate) return null;
    return gate.done;
  }

  /** Every checkout still running has ended (a process quits only then: never a half-made worktree). */
  async idle(): Promise<void> {
    await Promise.all([...this.gates.values()].map((g) => g.done));
  }
}
