/**
 * A handler's context read through a cast: `(extra as { signal?: AbortSignal }).signal`, `(extra as
 * any)._meta?.progressToken`, `(extra as unknown as Notifier).sendNotification`. Neither the official codemod
 * nor contextParamsRepair moves these (they move `extra.signal` only), and as a cast silences the checker,
 * each is `undefined` on SDK 2.x, whose context keeps them under `ctx.mcpReq`: cancellation and progress stop
 * without a type error. This repair moves the read where 2.x keeps it and keeps the cast on what is read
 * (`(ctx.mcpReq.signal as ({ signal?: AbortSignal })['signal'])`), the type the code asked for. A read it
 * cannot move so (the context typed `unknown` or `any`, so `ctx.mcpReq` would not compile, or read through a
 * local holding the cast) is marked.
 */
import type { Diagnostic } from '@modelcontextprotocol/codemod';
import { Node, SyntaxKind, type ParameterDeclaration, type PropertyAccessExpression, type SourceFile } from 'ts-morph';
import { finding, type Repair } from '../repair.js';
import { handlerContexts, type Callback, type ContextMembers } from './contextParams.js';
import { descendantsOfKind } from '../../analysis/descendants.js';

/** A cast, parentheses or `!` around an expression: what the code wrapped its context in. */
type Wrapper = Node & { getExpression(): Node };

function isWrapper(n: Node): n is Wrapper {
  return (
    Node.isParenthesizedExpression(n) ||
    Node.isAsExpression(n) ||
    Node.isTypeAssertion(n) ||
    Node.isNonNullExpression(n) ||
    Node.isSatisfiesExpression(n)
  );
}

/** The node under the wrappers, and whether there was a cast among them. */
function unwrapped(n: Node): { inner: Node; cast: boolean } {
  let cast = false;
  while (isWrapper(n)) {
    cast ||= Node.isAsExpression(n) || Node.isTypeAssertion(n);
    n = n.getExpression();
  }
  return { inner: n, cast };
}

/** Whether `n` is the context parameter itself. */
function isParam(n: Node, param: ParameterDeclaration): boolean {
  return Node.isIdentifier(n) && n.getText() === param.getName() && n.getSymbol() === param.getSymbol();
}

/**
 * `(ctx as T).m` as `(ctx.mcpReq.x as (T)['m'])`: the read moved, each cast's type narrowed to the member
 * it read (`unknown` and `any` kept as they are, so a double cast still compiles).
 */
function movedRead(access: PropertyAccessExpression, param: ParameterDeclaration, path: string): string {
  const member = access.getName();
  const rewrite = (n: Node): string => {
    if (isParam(n, param)) return `${param.getName()}${access.hasQuestionDotToken() ? `?${path}` : path}`;
    if (Node.isParenthesizedExpression(n) || Node.isNonNullExpression(n)) return rewrite(n.getExpression());
    if (Node.isAsExpression(n) || Node.isSatisfiesExpression(n) || Node.isTypeAssertion(n)) {
      const type = n.getTypeNodeOrThrow().getText();
      const narrowed = type === 'unknown' || type === 'any' ? type : `(${type})['${member}']`;
      return `${rewrite(n.getExpression())} ${Node.isSatisfiesExpression(n) ? 'satisfies' : 'as'} ${narrowed}`;
    }
    return n.getText();
  };
  return `(${rewrite(access.getExpression())})`;
}

/** Whether `ctx.mcpReq` compiles: the parameter is not declared `unknown`, `any` or `object`. */
function typedAsContext(param: ParameterDeclaration): boolean {
  const type = param.getTypeNode()?.getText();
  return type === undefined || !/^(?:unknown|any|object|\{\s*\})$/.test(type);
}

/** Moves the cast reads of one handler's context; the reads it cannot move are returned, with their member. */
function moveCastReads(
  callback: Callback,
  param: ParameterDeclaration,
  members: ContextMembers,
): { moved: string[]; left: Map<string, string> } {
  const moved: string[] = [];
  const left = new Map<string, string>();
  for (const access of descendantsOfKind(callback, SyntaxKind.PropertyAccessExpression).reverse()) {
    const path = members.get(access.getName());
    const { inner, cast } = unwrapped(access.getExpression());
    if (!path || !cast || !isParam(inner, param)) continue;
    if (!typedAsContext(param)) {
      left.set(access.getText(), access.getName());
      continue;
    }
    const read = access.getText();
    access.replaceWithText(movedRead(access, param, path));
    moved.push(read);
  }
  for (const access of descendantsOfKind(callback, SyntaxKind.PropertyAccessExpression)) {
    const { inner } = unwrapped(access.getExpression());
    if (members.has(access.getName()) && castAlias(inner, param)) left.set(access.getText(), access.getName());
  }
  return { moved, left };
}

/** A local initialised with a cast of the context (`const c = extra as {...}`): the name, when `id` is one. */
function castAlias(id: Node, param: ParameterDeclaration): string | undefined {
  const declaration = Node.isIdentifier(id) ? id.getSymbol()?.getDeclarations()[0] : undefined;
  if (!declaration || !Node.isVariableDeclaration(declaration)) return undefined;
  const init = declaration.getInitializer();
  if (!init) return undefined;
  const { inner, cast } = unwrapped(init);
  return cast && isParam(inner, param) ? declaration.getName() : undefined;
}

/** The marker on a handler whose context is read through a cast where the read cannot be moved. */
function leftCastReads(
  sf: SourceFile,
  param: ParameterDeclaration,
  left: ReadonlyMap<string, string>,
  members: ContextMembers,
): Diagnostic {
  const name = param.getName();
  const where = [...new Set(left.values())].map(m => `${m} → ${name}${members.get(m)}`).join(', ');
  const message = `the handler context "${name}" is read through a cast (${[...left.keys()].join(', ')}): SDK 2.x moved these members (${where}), so each read is undefined after the upgrade, and the cast hides it from the checker; read them where 2.x keeps them (type the parameter ServerContext), then remove this marker`;
  return { ...finding(sf, param.getStartLineNumber(), 'warning', message), insertComment: true };
}

export function contextCastsRepair(members: ContextMembers): Repair {
  return {
    id: 'context-casts',
    name: 'Handler context members read through a cast',
    apply: (sf: SourceFile) => {
      const diagnostics: Diagnostic[] = [];
      let changesCount = 0;
      for (const { callback, param } of handlerContexts(sf)) {
        if (!Node.isIdentifier(param.getNameNode())) continue;
        const line = param.getStartLineNumber();
        const { moved, left } = moveCastReads(callback, param, members);
        changesCount += moved.length;
        if (moved.length)
          diagnostics.push(
            finding(
              sf,
              line,
              'info',
              `the handler context "${param.getName()}" read through a cast (${moved.join(', ')}): moved where SDK 2.x keeps those members (under mcpReq), where the cast hid them`,
            ),
          );
        if (left.size) diagnostics.push(leftCastReads(sf, param, left, members));
      }
      return { changesCount, diagnostics };
    },
  };
}
