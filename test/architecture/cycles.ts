/** Import cycles of a module graph, each named by the modules it goes through. */

/** Module → the modules it imports. */
export type ModuleGraph = ReadonlyMap<string, readonly string[]>;

/**
 * The cycles worth reporting: for each import inside a strongly connected component (modules that all reach one
 * another), the shortest cycle that goes through it, without repeats. So every import that closes a circle shows
 * up in some listed cycle, while enumerating every elementary cycle would grow exponentially with a tangle.
 * A cycle is listed from its smallest module name and ends where it starts.
 */
export function findCycles(graph: ModuleGraph): string[][] {
  const cycles = new Map<string, string[]>();
  for (const component of stronglyConnected(graph)) {
    const members = new Set(component);
    for (const from of component) {
      for (const to of graph.get(from) ?? []) {
        if (!members.has(to)) continue;
        const back = shortestPath(graph, to, from, members) as string[];
        const cycle = rotateToSmallest([from, ...back.slice(0, -1)]);
        cycles.set(cycle.join(' → '), [...cycle, cycle[0] as string]);
      }
    }
  }
  return [...cycles.values()].sort((a, b) => a.join().localeCompare(b.join()));
}

/** Tarjan's algorithm, iterative so that a long import chain cannot overflow the stack. */
function stronglyConnected(graph: ModuleGraph): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const components: string[][] = [];
  let counter = 0;
  for (const root of graph.keys()) {
    if (index.has(root)) continue;
    const work: { node: string; next: number }[] = [{ node: root, next: 0 }];
    index.set(root, counter);
    low.set(root, counter++);
    stack.push(root);
    onStack.add(root);
    while (work.length) {
      const frame = work[work.length - 1] as { node: string; next: number };
      const targets = graph.get(frame.node) ?? [];
      if (frame.next < targets.length) {
        const target = targets[frame.next++] as string;
        if (!index.has(target)) {
          index.set(target, counter);
          low.set(target, counter++);
          stack.push(target);
          onStack.add(target);
          work.push({ node: target, next: 0 });
        } else if (onStack.has(target)) {
          low.set(frame.node, Math.min(low.get(frame.node) as number, index.get(target) as number));
        }
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent) low.set(parent.node, Math.min(low.get(parent.node) as number, low.get(frame.node) as number));
      if (low.get(frame.node) !== index.get(frame.node)) continue;
      const component: string[] = [];
      let member: string | undefined;
      do {
        member = stack.pop() as string;
        onStack.delete(member);
        component.push(member);
      } while (member !== frame.node);
      const selfImport = (graph.get(frame.node) ?? []).includes(frame.node);
      if (component.length > 1 || selfImport) components.push(component);
    }
  }
  return components;
}

/** Breadth-first from `start` to `end` inside `members`, both ends included; `[start]` when they are the same. */
function shortestPath(
  graph: ModuleGraph,
  start: string,
  end: string,
  members: ReadonlySet<string>,
): string[] | undefined {
  const previous = new Map<string, string>([[start, start]]);
  const queue = [start];
  for (let i = 0; i < queue.length; i++) {
    const node = queue[i] as string;
    if (node === end) {
      const path = [node];
      while (path[0] !== start) path.unshift(previous.get(path[0] as string) as string);
      return path;
    }
    for (const target of graph.get(node) ?? []) {
      if (!members.has(target) || previous.has(target)) continue;
      previous.set(target, node);
      queue.push(target);
    }
  }
  return undefined;
}

function rotateToSmallest(cycle: string[]): string[] {
  let smallest = 0;
  cycle.forEach((node, i) => {
    if (node < (cycle[smallest] as string)) smallest = i;
  });
  return [...cycle.slice(smallest), ...cycle.slice(0, smallest)];
}
