/**
 * Handlers registered through a function of the project: `reg('confirm', async (a, extra) => ...)` where
 * `function reg(name, cb) { server.registerTool(name, { inputSchema }, cb); }`, or a method called as
 * `this.reg(...)`. A callback the wrapper hands on unchanged, as the handler of a registration it makes,
 * is that registration's handler: migrated like any handler, its state bound to the name its caller
 * passes. What keeps it from being one (the wrapper calls it, or registers it under a name made inside
 * it, or its parameter's type lets it return no input_required) is what its marker says.
 */
import path from 'node:path';
import { Node, SyntaxKind, type CallExpression, type ParameterDeclaration } from 'ts-morph';
import { mcpImportOf, serverKindOf, unwrap } from './mcpSymbols.js';
import { projectMayDeclareMember } from './projectNames.js';
import { enclosingFunction, type FunctionLike } from './functions.js';
import { registrationFor, TOOL_METHODS, type Registration, type RegistrationLookup } from './registrations.js';
import { descendantsOfKind } from './descendants.js';

export interface Wrapping {
  /** The wrapper's call the callback is passed to. */
  call: CallExpression;
  /** The wrapper as the report names it: `reg()`. */
  wrapper: string;
  /** The registration call in the wrapper the callback is handed to. */
  registration: CallExpression;
  /** The wrapper's file, by its base name. */
  where: string;
  /** As registrationOf gives it, when the callback is migrated as that registration's handler. */
  handler?: Registration;
  /** Why it is not, for its marker: what was found, and what to do. */
  refused?: { why: string; fix: string };
}

/** Per callback, its wrapping (null: none); a new program makes new nodes. */
const cache = new WeakMap<Node, Wrapping | null>();

/** The registration of a callback registered through a wrapper of the project, when it is migrated as its handler. */
export function wrappedRegistrationOf(
  fn: FunctionLike,
  passed: { call: CallExpression; arg: Node },
  lookup: RegistrationLookup,
): Registration | undefined {
  return wrappingOf(fn, passed, lookup)?.handler;
}

/** How a callback passed to `passed.call` is registered, when that call is a wrapper of the project that registers it. */
export function wrappingOf(
  fn: FunctionLike,
  passed: { call: CallExpression; arg: Node },
  lookup: RegistrationLookup,
): Wrapping | undefined {
  const cached = cache.get(fn);
  if (cached !== undefined) return cached ?? undefined;
  // None while it is looked for: wrappers that register callbacks through each other end there.
  cache.set(fn, null);
  const found = findWrapping(fn, passed, lookup) ?? null;
  cache.set(fn, found);
  return found ?? undefined;
}

function findWrapping(
  fn: FunctionLike,
  { call, arg }: { call: CallExpression; arg: Node },
  lookup: RegistrationLookup,
): Wrapping | undefined {
  const callee = unwrap(call.getExpression());
  if (Node.isPropertyAccessExpression(callee) && (callee.getName() in TOOL_METHODS || callee.getName() === 'setRequestHandler'))
    return undefined;
  const wrapper = wrapperFunction(callee);
  const param = wrapper?.getParameters()[call.getArguments().indexOf(arg as never)];
  if (!wrapper || !param || param.isRestParameter() || !Node.isIdentifier(param.getNameNode())) return undefined;
  const uses = usesOf(param, wrapper);
  const name = `${Node.isPropertyAccessExpression(callee) ? callee.getName() : callee.getText()}()`;
  // Named, not placed: a marker's text must read the same in every pass, whatever the lines above it.
  const where = path.basename(wrapper.getSourceFile().getFilePath());
  const handedTo = uses.map(u => ({ use: u, registration: registrationTaking(u) })).find(x => x.registration);
  if (!handedTo) {
    // Called from a handler the wrapper registers (`server.registerTool(name, config, async (a, ctx) => cb(a, ctx))`).
    const host = uses.map(u => enclosingFunction(u)).find(f => f && f !== wrapper && lookup.handlerRegistrationOf(f));
    if (!host) return undefined;
    const registration = lookup.handlerRegistrationOf(host)!.call;
    const why = `${name} does not register it but calls it from the handler it registers, a call through a parameter that cannot be followed to migrate it as that handler's delegate`;
    return {
      call,
      wrapper: name,
      registration,
      where,
      refused: { why, fix: `have ${name} pass it to ${registration.getExpression().getText()}(...) unchanged, or migrate by hand` },
    };
  }
  const registration = handedTo.registration!;
  const wrapping: Wrapping = { call, wrapper: name, registration, where };
  const refuse = (why: string, fix: string): Wrapping => ({ ...wrapping, refused: { why, fix } });
  if (uses.length !== 1) {
    return refuse(
      `${name} also uses it otherwise than registering it (${uses.length} uses), and a migrated handler returns input_required to whatever calls it`,
      `have ${name} only register it, or migrate by hand`,
    );
  }
  // The registration's arguments as the callback's scope reads them: the wrapper's parameters as its caller passes them.
  const args = registration.getArguments().map(a => (a === handedTo.use ? a : (passedFor(a, wrapper, call) ?? a)));
  const handler = registrationFor(registration, handedTo.use, fn, args);
  if (!handler) return undefined;
  const named = handler.args.kind === 'request' ? undefined : args[0];
  if (named && named === registration.getArguments()[0] && !isLiteral(named)) {
    return refuse(
      `the name ${name} registers it under (${named.getText()}) is made inside ${name}, where the callback cannot read it, and its requestState must be bound to that name`,
      `pass the name to ${name} as an argument, or migrate by hand`,
    );
  }
  const typed = typeOfParam(param, fn, handler);
  if (typed.refused) return refuse(typed.refused.why, typed.refused.fix);
  if (typed.widen && wrapper.getSourceFile().isSaved()) {
    return refuse(
      `${param.getName()} is declared as ${typed.widen.getText()}, whose result must be widened to let the handler return input_required, and ${path.basename(wrapper.getSourceFile().getFilePath())} is not one of the files this run migrates`,
      `run mcp-migrate over it and this file together, or migrate by hand`,
    );
  }
  return { ...wrapping, handler: { ...handler, wrapper: { call, name: named, widen: typed.widen ? [typed.widen] : undefined } } };
}

/** The project's function or method a call runs (`reg(...)`, `this.reg(...)`, `tools.reg(...)`), with a body. */
export function wrapperFunction(callee: Node): FunctionLike | undefined {
  const id = Node.isPropertyAccessExpression(callee) ? callee.getNameNode() : Node.isIdentifier(callee) ? callee : undefined;
  if (id && Node.isPropertyAccessExpression(callee) && !projectMayDeclareMember(id, id.getText())) return undefined;
  const symbol = id?.getSymbol();
  const decl = (symbol?.isAlias() ? symbol.getAliasedSymbol() : symbol)?.getDeclarations()[0];
  if (!decl || decl.getSourceFile().isDeclarationFile() || decl.getSourceFile().isInNodeModules()) return undefined;
  const fn =
    Node.isVariableDeclaration(decl) || Node.isPropertyDeclaration(decl) ? decl.getInitializer() && unwrap(decl.getInitializer()!) : decl;
  if (
    !fn ||
    !(Node.isFunctionDeclaration(fn) || Node.isMethodDeclaration(fn) || Node.isArrowFunction(fn) || Node.isFunctionExpression(fn)) ||
    !fn.getBody()
  )
    return undefined;
  return fn as FunctionLike;
}

/** The identifiers naming a parameter in its function (by symbol: a shadowing local is another name). */
function usesOf(param: ParameterDeclaration, fn: FunctionLike): Node[] {
  const nameNode = param.getNameNode();
  const symbol = nameNode.getSymbol();
  const name = nameNode.getText();
  return descendantsOfKind(fn, SyntaxKind.Identifier).filter(id => id !== nameNode && id.getText() === name && id.getSymbol() === symbol);
}

/** The registration call a use of the wrapper's parameter is the handler of, if it is one. */
function registrationTaking(use: Node): CallExpression | undefined {
  const call = use.getParent();
  if (!call || !Node.isCallExpression(call)) return undefined;
  const callee = call.getExpression();
  if (!Node.isPropertyAccessExpression(callee)) return undefined;
  const args = call.getArguments();
  const method = callee.getName();
  if (method in TOOL_METHODS && args[args.length - 1] === use && serverKindOf(callee.getExpression()) === 'McpServer') return call;
  if (method === 'setRequestHandler' && args[1] === use && serverKindOf(callee.getExpression())) return call;
  return undefined;
}

/** What the wrapper's caller passes for a parameter `node` names, if it names one of the wrapper's. */
function passedFor(node: Node, wrapper: FunctionLike, call: CallExpression): Node | undefined {
  const n = unwrap(node);
  if (!Node.isIdentifier(n)) return undefined;
  const decl = n.getSymbol()?.getDeclarations()[0];
  const index = decl && Node.isParameterDeclaration(decl) ? wrapper.getParameters().indexOf(decl) : -1;
  return index >= 0 ? call.getArguments()[index] : undefined;
}

function isLiteral(node: Node): boolean {
  const n = unwrap(node);
  return Node.isStringLiteral(n) || Node.isNoSubstitutionTemplateLiteral(n);
}

/**
 * Whether the wrapper's parameter, as declared, lets the migrated callback take the context and return
 * input_required: untyped, an SDK callback type (2.x's include input_required), or a function type whose
 * return type the rewrite widens.
 */
function typeOfParam(
  param: ParameterDeclaration,
  fn: FunctionLike,
  handler: Registration,
): { widen?: Node; refused?: { why: string; fix: string } } {
  const type = param.getTypeNode();
  if (!type) return {};
  if (Node.isTypeReference(type) && mcpImportOf(type.getTypeName())) return {};
  const fix = `declare it as the SDK's callback type (ToolCallback, PromptCallback), or as a function type taking (args, ctx) whose result may be an InputRequiredResult, and run again; or migrate by hand`;
  if (!Node.isFunctionTypeNode(type))
    return {
      refused: {
        why: `${param.getName()} is declared as ${type.getText()}, which the rewrite cannot widen to let the handler return input_required`,
        fix,
      },
    };
  if (fn.getParameters().length <= handler.ctxIndex && type.getParameters().length <= handler.ctxIndex) {
    return {
      refused: {
        why: `${param.getName()} is declared as ${type.getText()}, which gives the handler no context parameter to ask the client through`,
        fix,
      },
    };
  }
  return /\bInputRequiredResult\b|^any$/.test(type.getReturnTypeNode()?.getText() ?? 'any') ? {} : { widen: type };
}
