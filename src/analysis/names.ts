import { ts, type Identifier, type Node, type SourceFile } from 'ts-morph';
import { descendantsWhere, forEachCompilerNode } from './descendants.js';

/** Fresh names for what the rewrite introduces, never one already taken: `base`, then `base2`, `base3`... */
export function nameAllocator(taken: Iterable<string>): (base: string) => string {
  const used = new Set(taken);
  return base => {
    let name = base;
    for (let i = 2; used.has(name); i++) name = `${base}${i}`;
    used.add(name);
    return name;
  };
}

/**
 * The text of every identifier of the file, JSDoc's included: what `getDescendantsOfKind(Identifier)` finds,
 * walked on the compiler's nodes. ts-morph looks for a token kind through every node's full children (the
 * file scanned again, a wrapper per token), which on a large file costs more than the analysis of a handler.
 */
export function identifierTexts(sf: SourceFile): string[] {
  const texts: string[] = [];
  // The name, escapes resolved (`\u0061nswer` is answer), as ts-morph's Identifier.getText() gives it.
  forEachCompilerNode(
    sf.compilerNode,
    node => {
      if (ts.isIdentifier(node)) texts.push(node.text);
    },
    { jsDoc: true },
  );
  return texts;
}

/**
 * The identifiers under `node` (itself included, JSDoc's too) whose name is one of `names`, in source order: what
 * `getDescendantsOfKind(Identifier)` filtered by name gives, with a wrapper made for the matches only. The name is
 * compared escapes resolved; callers comparing `getText()` keep their own test.
 */
export function identifiersNamed(node: Node, names: ReadonlySet<string>): Identifier[] {
  return descendantsWhere<Identifier>(node, n => ts.isIdentifier(n) && names.has(n.text), { jsDoc: true });
}
