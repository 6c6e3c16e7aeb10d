/**
 * The signatures of migrated functions: the context parameter a handler or delegate now needs, and a
 * return type (annotation, function type or JSDoc `@returns`) widened to `T | InputRequiredResult`.
 */
import type { ASTPath } from 'jscodeshift';
import type { HandlerPlan } from '../plan.js';
import type { AnyNode, RewriteContext } from './context.js';

/** The context parameter (and those before it) a handler or delegate declares none of. */
export function addContextParams(cx: RewriteContext, fn: AnyNode, ctx: HandlerPlan['ctx']): void {
  const { j } = cx;
  for (const name of ctx.add ?? []) {
    const param = j.identifier(name);
    if (ctx.typed) param.typeAnnotation = j.tsTypeAnnotation(name === ctx.name ? j.tsTypeReference(j.identifier(cx.useType('ServerContext'))) : j.tsUnknownKeyword());
    fn.params.push(param);
  }
}

/** `Promise<CallToolResult>` → `Promise<CallToolResult | InputRequiredResult>`: the handler now returns either. */
export function widenReturnType(cx: RewriteContext, fn: AnyNode): void {
  const widened = fn.returnType?.typeAnnotation && widenedAnnotation(cx, fn.returnType.typeAnnotation);
  if (widened) fn.returnType = widened;
}

/** `(args: any, ctx: any) => Promise<CallToolResult>`: its result widened as a handler's return type is. */
export function widenFunctionType(cx: RewriteContext, type: AnyNode): void {
  // The parser names the result `typeAnnotation` (Babel 7) or `returnType` (Babel 8).
  // Only the type inside is replaced: a new annotation would print as `: T`, not `=> T`.
  const result = type.returnType ?? type.typeAnnotation;
  const widened = result?.typeAnnotation && widenedAnnotation(cx, result.typeAnnotation);
  if (widened) result.typeAnnotation = widened.typeAnnotation;
}

/** The type annotation `T | InputRequiredResult` (`Promise<T | InputRequiredResult>` for a promise), unless `T` names it already. */
function widenedAnnotation(cx: RewriteContext, annotation: AnyNode): AnyNode | undefined {
  const promise = annotation.type === 'TSTypeReference' && annotation.typeName?.name === 'Promise' ? annotation.typeParameters?.params?.[0] : undefined;
  const inner = promise ?? annotation;
  const text = cx.source.slice(inner.start, inner.end);
  if (/\bInputRequiredResult\b/.test(text)) return undefined;
  const widened = `${text} | ${cx.useType('InputRequiredResult')}`;
  return cx.parseStatements(`let x: ${promise ? `Promise<${widened}>` : widened};`)[0].declarations[0].id.typeAnnotation;
}

/**
 * A JSDoc `@returns {Promise<CallToolResult>}` (JavaScript typed with JSDoc), widened as an
 * annotation is; a type with braces of its own is left as it is.
 */
export function widenJsDocReturns(cx: RewriteContext, fnPath: ASTPath<AnyNode>): void {
  const fn = fnPath.node as AnyNode;
  const declarator = fnPath.parent?.node as AnyNode;
  const owner = fn.type === 'FunctionDeclaration' ? fn : declarator?.type === 'VariableDeclarator' ? fnPath.parent.parent?.node : fn;
  for (const comment of (owner?.comments ?? []) as AnyNode[]) {
    if (!comment.leading || comment.type !== 'CommentBlock' || !comment.value.startsWith('*')) continue;
    const widened = comment.value.replace(/(@returns?\s*\{)([^{}]*)\}/, (whole: string, tag: string, type: string) => {
      if (/\bInputRequiredResult\b/.test(type)) return whole;
      const inputRequired = `import('${cx.modules.sdk}').InputRequiredResult`;
      const promise = /^\s*Promise<(.*)>\s*$/.exec(type);
      return `${tag}${promise ? `Promise<${promise[1]} | ${inputRequired}>` : `${type.trim()} | ${inputRequired}`}}`;
    });
    if (widened !== comment.value) cx.commentEdits.push({ from: `/*${comment.value}*/`, to: `/*${widened}*/` });
  }
}
