/**
 * The descendants of a node that pass a test of the compiler's node, wrapped by ts-morph: only the matches get a
 * wrapper. ts-morph's own walks (`forEachDescendant`, `getDescendantsOfKind`) make one for every node they pass,
 * which on the run's hundreds of files is much of its time and most of its garbage.
 */
import { SyntaxKind, ts, type KindToNodeMappings, type Node } from 'ts-morph';

export interface DescendantWalk {
  /** Walk the JSDoc a node carries, as `getDescendantsOfKind` does (`forEachDescendant` does not). */
  jsDoc?: boolean;
}

/** Calls `each` on the compiler's nodes under `root` (itself included), in source order, parents before their children. */
export function forEachCompilerNode(root: ts.Node, each: (n: ts.Node) => void, walk: DescendantWalk = {}): void {
  const visit = (n: ts.Node): void => {
    each(n);
    // JSDoc hangs off its host, outside forEachChild.
    if (walk.jsDoc) for (const doc of (n as { jsDoc?: ts.Node[] }).jsDoc ?? []) visit(doc);
    ts.forEachChild(n, visit);
  };
  visit(root);
}

/** The nodes under `node` (itself included) that pass `test`, in source order, parents before their children. */
export function descendantsWhere<T extends Node = Node>(node: Node, test: (n: ts.Node) => boolean, walk: DescendantWalk = {}): T[] {
  const found: ts.Node[] = [];
  forEachCompilerNode(
    node.compilerNode,
    n => {
      if (test(n)) found.push(n);
    },
    walk,
  );
  // ts-morph's own way from a compiler node to its wrapper, which it keeps protected.
  const wrap = (node as unknown as { _getNodeFromCompilerNode(n: ts.Node): T })._getNodeFromCompilerNode.bind(node);
  return found.map(wrap);
}

/**
 * What ts-morph's `node.getDescendantsOfKind(kind)` gives (the same nodes, in the same order), with a wrapper for
 * the matches only. ts-morph finds a kind of syntax node by the compiler's `forEachChild`, as this does, through a
 * recursive generator that wraps nothing but costs a step per level for every node; its walks were 3 s of the
 * 1,000-file tree's run. A token or JSDoc kind, which ts-morph finds among the children its parser makes, is left
 * to it.
 */
export function descendantsOfKind<K extends SyntaxKind>(node: Node, kind: K): KindToNodeMappings[K][] {
  const syntaxNode = kind >= SyntaxKind.FirstNode && kind < SyntaxKind.FirstJSDocNode && node.getKind() !== SyntaxKind.SyntaxList;
  if (!syntaxNode) return node.getDescendantsOfKind(kind);
  const root = node.compilerNode;
  return descendantsWhere<KindToNodeMappings[K]>(node, n => n.kind === kind && n !== root);
}
