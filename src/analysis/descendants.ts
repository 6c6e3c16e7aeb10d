/**
 * The descendants of a node that pass a test of the compiler's node, wrapped by ts-morph: only the matches get a
 * wrapper. ts-morph's own walks (`forEachDescendant`, `getDescendantsOfKind`) make one for every node they pass,
 * which on the run's hundreds of files is much of its time and most of its garbage.
 */
import { ts, type Node } from 'ts-morph';

export interface DescendantWalk {
  /** Walk the JSDoc a node carries, as `getDescendantsOfKind` does (`forEachDescendant` does not). */
  jsDoc?: boolean;
}

/** The nodes under `node` (itself included) that pass `test`, in source order, parents before their children. */
export function descendantsWhere<T extends Node = Node>(node: Node, test: (n: ts.Node) => boolean, walk: DescendantWalk = {}): T[] {
  const found: ts.Node[] = [];
  const visit = (n: ts.Node): void => {
    if (test(n)) found.push(n);
    if (walk.jsDoc) for (const doc of (n as { jsDoc?: ts.Node[] }).jsDoc ?? []) visit(doc);
    ts.forEachChild(n, visit);
  };
  visit(node.compilerNode);
  // ts-morph's own way from a compiler node to its wrapper, which it keeps protected.
  const wrap = (node as unknown as { _getNodeFromCompilerNode(n: ts.Node): T })._getNodeFromCompilerNode.bind(node);
  return found.map(wrap);
}
