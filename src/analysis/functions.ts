/**
 * The functions the analysis reads as handlers, helpers and callbacks, and the one a node is written in.
 */
import { Node, type ParameterDeclaration } from 'ts-morph';

/** A function with parameters and a body: a declaration, an expression, an arrow or a method. */
export type FunctionLike = Node & { getParameters(): ParameterDeclaration[]; getBody(): Node | undefined };

/** The function a node is written in (a getter, setter, constructor or static block is none: src/analysis/nonHandlers.ts says where such a node is). */
export function enclosingFunction(node: Node): FunctionLike | undefined {
  const fn = node.getFirstAncestor(
    a => Node.isArrowFunction(a) || Node.isFunctionExpression(a) || Node.isFunctionDeclaration(a) || Node.isMethodDeclaration(a),
  );
  return fn as FunctionLike | undefined;
}

/**
 * What a `this` written at `node` is bound by: the nearest function, class member or static block that is no arrow
 * function (an arrow's `this` is its enclosing one's), or the file at the top level.
 */
export function thisOwner(node: Node): Node {
  return (
    node.getFirstAncestor(
      a =>
        Node.isFunctionDeclaration(a) ||
        Node.isFunctionExpression(a) ||
        Node.isMethodDeclaration(a) ||
        Node.isConstructorDeclaration(a) ||
        Node.isGetAccessorDeclaration(a) ||
        Node.isSetAccessorDeclaration(a) ||
        Node.isPropertyDeclaration(a) ||
        Node.isClassStaticBlockDeclaration(a),
    ) ?? node.getSourceFile()
  );
}
