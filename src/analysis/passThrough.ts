/**
 * Handlers wrapped by a pass-through of the project before they are registered:
 * `server.registerTool('send', config, withErrors(async (args, extra) => ...))`, where
 * `function withErrors(cb) { return async (...a) => { try { return await cb(...a); } catch ... } }`.
 * The function the wrapper returns hands the registration's arguments to the callback unchanged and
 * returns its result, so the callback is the registration's handler: its second parameter is the
 * context, and its body is split into phases like any handler's; the wrapper's own code (a try/catch,
 * logging, timing) then runs once per round, which the report says. A wrapper that changes the
 * arguments, uses the callback otherwise, is not the project's, or declares a type that cannot carry
 * input_required (one the rewrite cannot widen) stays marked, with which.
 */
import path from 'node:path';
import { Node, type CallExpression, type FunctionTypeNode, type ParameterDeclaration } from 'ts-morph';
import { mcpImportOf, unwrap } from './mcpSymbols.js';
import type { FunctionLike } from './functions.js';
import { isRegistrationCall, registrationFor, type Registration } from './registrations.js';
import { forwardingProblem, returnedFunction } from './forwarding.js';
import { wrapperFunction } from './wrappers.js';

export interface PassThrough {
  /** The wrapper as the report names it: `withErrors()`. */
  wrapper: string;
  /** As registrationOf gives it, when the callback is migrated as the registration's handler. */
  handler?: Registration;
  /** Why it is not, for its marker: what was found, and what to do. */
  refused?: { why: string; fix: string };
}

/** Per callback, its pass-through wrapping (null: none); a new program makes new nodes. */
const cache = new WeakMap<Node, PassThrough | null>();

/** How a callback passed to `passed.call` reaches the registration that call is the handler of, when it is a pass-through wrapper. */
export function passThroughOf(fn: FunctionLike, passed: { call: CallExpression; arg: Node }): PassThrough | undefined {
  const cached = cache.get(fn);
  if (cached !== undefined) return cached ?? undefined;
  cache.set(fn, null);
  const found = findPassThrough(fn, passed) ?? null;
  cache.set(fn, found);
  return found ?? undefined;
}

function findPassThrough(fn: FunctionLike, { call, arg }: { call: CallExpression; arg: Node }): PassThrough | undefined {
  const registration = call.getParent();
  if (
    !registration ||
    !Node.isCallExpression(registration) ||
    registration.getArguments().at(-1) !== call ||
    !isRegistrationCall(registration)
  )
    return undefined;
  const callee = unwrap(call.getExpression());
  const name = `${Node.isPropertyAccessExpression(callee) ? callee.getName() : callee.getText()}()`;
  const fix = `make ${name} a pass-through of the project (\`return async (...args) => { ... return await cb(...args); }\`), or pass the callback to the registration directly and keep the wrapper's work inside it (it is then migrated); or migrate by hand`;
  const refuse = (why: string, how = fix): PassThrough => ({ wrapper: name, refused: { why, fix: how } });
  const wrapper = wrapperFunction(callee);
  // A method may be overridden, and the override run instead: only functions are read.
  if (!wrapper || Node.isMethodDeclaration(wrapper)) return refuse(`${name} is not a function of the project whose body can be read`);
  const param = wrapper.getParameters()[call.getArguments().indexOf(arg as never)];
  if (!param || param.isRestParameter() || !Node.isIdentifier(param.getNameNode()))
    return refuse(`${name} does not take the callback as a named parameter`);
  const handler = registrationFor(registration, call, fn);
  if (!handler) return undefined;
  const returned = returnedFunction(wrapper);
  if (!returned) return refuse(`${name} does not return a function it makes (its body must end \`return (...args) => cb(...args)\`)`);
  const notPassed = forwardingProblem(wrapper, param, returned, handler.ctxIndex);
  if (notPassed) return refuse(`${name} ${notPassed}`);
  const typed = typesToWiden(name, param, returned, fn, handler, wrapper);
  if (!Array.isArray(typed)) return refuse(typed.why, typed.fix);
  const file = path.basename(wrapper.getSourceFile().getFilePath());
  if (typed.length > 0 && wrapper.getSourceFile().isSaved())
    return refuse(
      `its types (${typed.map(t => t.getText()).join(', ')}) must be widened to let the handler return input_required, and ${file} is not one of the files this run migrates`,
      'run mcp-migrate over it and this file together, or migrate by hand',
    );
  const elsewhere = typed.length > 0 ? useOutsideRegistrations(wrapper) : undefined;
  if (elsewhere)
    return refuse(
      `its types (${typed.map(t => t.getText()).join(', ')}) must be widened to let the handler return input_required, and ${name} is also used otherwise than wrapping a registered handler (${elsewhere}), where the wider type may not fit`,
      `have ${name} only wrap registered handlers, or migrate by hand`,
    );
  return {
    wrapper: name,
    handler: {
      ...handler,
      wrapper: {
        call,
        name: handler.args.kind === 'request' ? undefined : registration.getArguments()[0],
        widen: typed,
        passesThrough: name,
      },
    },
  };
}

/**
 * The wrapper's types that must be widened by InputRequiredResult for the migrated callback's result to
 * pass through them (its parameter's, its own result's function types), or why they cannot be.
 */
function typesToWiden(
  name: string,
  param: ParameterDeclaration,
  inner: FunctionLike,
  fn: FunctionLike,
  handler: Registration,
  wrapper: FunctionLike,
): FunctionTypeNode[] | { why: string; fix: string } {
  const fix =
    'write it as a function type (the rewrite widens its result by InputRequiredResult) or leave it to inference, and run again; or migrate by hand';
  const paramType = param.getTypeNode();
  const taken = paramType && functionTypeOf(paramType, wrapper);
  if (typeof taken === 'string') return { why: `its parameter ${param.getName()} is declared as ${paramType!.getText()}, ${taken}`, fix };
  if (taken && fn.getParameters().length <= handler.ctxIndex && taken.getParameters().length <= handler.ctxIndex) {
    return {
      why: `its parameter ${param.getName()} is declared as ${paramType!.getText()}, which gives the handler no context parameter to ask the client through`,
      fix,
    };
  }
  const resultType = (wrapper as { getReturnTypeNode?(): Node | undefined }).getReturnTypeNode?.();
  const made = resultType && functionTypeOf(resultType, wrapper);
  if (typeof made === 'string') return { why: `${name} is declared to return ${resultType!.getText()}, ${made}`, fix };
  const own = (inner as { getReturnTypeNode?(): Node | undefined }).getReturnTypeNode?.();
  if (own && !acceptsInputRequired(own)) {
    return {
      why: `the function ${name} returns is declared to return ${own.getText()}, which cannot be an InputRequiredResult`,
      fix: `widen it (\`${own.getText()} | InputRequiredResult\`) or drop it, and run again; or migrate by hand`,
    };
  }
  return [...new Set([taken, made])].filter((t): t is FunctionTypeNode => t !== undefined && !acceptsInputRequired(t.getReturnTypeNode()));
}

/**
 * The function type a type annotation of the wrapper's stands for, when the rewrite may widen its result:
 * written there, or a type alias of the project for one (`type ToolCallback<A, E> = (a: A, e: E) =>
 * Promise<CallToolResult>`) that nothing but the wrapper's signature names, so widening it changes no
 * other code; undefined when it already takes input_required (untyped, any, an SDK type); else why not.
 */
function functionTypeOf(type: Node, wrapper: FunctionLike): FunctionTypeNode | undefined | string {
  if (acceptsInputRequired(type)) return undefined;
  if (Node.isFunctionTypeNode(type)) return type;
  const cannot = 'which the rewrite cannot widen to let the handler return input_required';
  if (!Node.isTypeReference(type)) return cannot;
  const alias = type.getTypeName().getSymbol()?.getDeclarations()[0];
  if (!alias || !Node.isTypeAliasDeclaration(alias) || alias.getSourceFile().isDeclarationFile() || alias.getSourceFile().isInNodeModules())
    return cannot;
  const aliased = alias.getTypeNode();
  if (!aliased || !Node.isFunctionTypeNode(aliased)) return `a type alias for ${aliased?.getText() ?? 'a type'}, ${cannot}`;
  if (alias.getSourceFile().isSaved())
    return `a type alias declared in ${path.basename(alias.getSourceFile().getFilePath())}, which is not one of the files this run migrates`;
  const body = wrapper.getBody();
  const other = alias
    .getNameNode()
    .findReferencesAsNodes()
    .find(r => r !== alias.getNameNode() && !(r.getAncestors().includes(wrapper) && !(body && r.getAncestors().includes(body))));
  if (other) {
    const { line } = other.getSourceFile().getLineAndColumnAtPos(other.getStart());
    return `a type alias also used outside the wrapper's signature (${path.basename(other.getSourceFile().getFilePath())}:${line}), where widening its result could break that use`;
  }
  return aliased;
}

/** Untyped, any, an SDK type, or a type that names InputRequiredResult already. */
function acceptsInputRequired(type: Node | undefined): boolean {
  if (!type) return true;
  if (Node.isTypeReference(type) && mcpImportOf(type.getTypeName())) return true;
  return /\bInputRequiredResult\b|^any$/.test(type.getText());
}

/** A use of the wrapper other than as the handler of a registration (`registerTool(..., wrapper(cb))`), said for the marker. */
function useOutsideRegistrations(wrapper: FunctionLike): string | undefined {
  const parent = wrapper.getParent();
  const nameNode = Node.isFunctionDeclaration(wrapper)
    ? wrapper.getNameNode()
    : parent && Node.isVariableDeclaration(parent)
      ? parent.getNameNode()
      : undefined;
  if (!nameNode || !Node.isIdentifier(nameNode)) return 'it has no name to find its uses by';
  for (const ref of nameNode.findReferencesAsNodes()) {
    const up = ref.getParent();
    if (!up || Node.isImportSpecifier(up) || Node.isImportClause(up) || Node.isExportSpecifier(up)) continue;
    const outer = Node.isCallExpression(up) && up.getExpression() === ref ? up.getParent() : undefined;
    if (outer && Node.isCallExpression(outer) && outer.getArguments().at(-1) === up && isRegistrationCall(outer)) continue;
    const { line } = ref.getSourceFile().getLineAndColumnAtPos(ref.getStart());
    return `${path.basename(ref.getSourceFile().getFilePath())}:${line}`;
  }
  return undefined;
}
