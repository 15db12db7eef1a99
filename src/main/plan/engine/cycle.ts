/**
 * Dependency cycle detection in O(steps + edges): Kahn's algorithm peels off every node that can
 * be ordered; whatever is left sits on or behind a cycle, and walking unresolved dependencies
 * from any leftover node must revisit a node, which closes the cycle we report.
 */
export interface DependencyNode {
  id: number;
  dependsOn: readonly number[];
}

/** The ids along one cycle, first id repeated at the end (e.g. [2, 3, 2]), or null. */
export function findDependencyCycle(nodes: readonly DependencyNode[]): number[] | null {
  const known = new Set(nodes.map((n) => n.id));
  const indegree = new Map<number, number>();
  const dependents = new Map<number, number[]>();
  for (const node of nodes) {
    const deps = node.dependsOn.filter((d) => known.has(d));
    indegree.set(node.id, deps.length);
    for (const dep of deps) {
      const list = dependents.get(dep);
      if (list) list.push(node.id);
      else dependents.set(dep, [node.id]);
    }
  }
  const queue = nodes.filter((n) => indegree.get(n.id) === 0).map((n) => n.id);
  for (let head = 0; head < queue.length; head++) {
    for (const next of dependents.get(queue[head] as number) ?? []) {
      const left = (indegree.get(next) ?? 0) - 1;
      indegree.set(next, left);
      if (left === 0) queue.push(next);
    }
  }
  if (queue.length === nodes.length) return null;

  const unresolved = new Map(nodes.filter((n) => (indegree.get(n.id) ?? 0) > 0).map((n) => [n.id, n]));
  const start = unresolved.keys().next().value as number;
  const seenAt = new Map<number, number>();
  const path: number[] = [];
  let current = start;
  // Every unresolved node has at least one unresolved dependency, so this walk must loop.
  while (!seenAt.has(current)) {
    seenAt.set(current, path.length);
    path.push(current);
    const node = unresolved.get(current);
    const nextId = node?.dependsOn.find((d) => unresolved.has(d));
    if (nextId === undefined) return path; // unreachable by construction; kept total for safety
    current = nextId;
  }
  const cycle = path.slice(seenAt.get(current));
  return [...cycle, current];
}
