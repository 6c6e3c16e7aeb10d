/**
 * Handlers that only hand their call on: `async args => this.execute(args as Args)`, or a block that
 * only returns (or `return await`s) such a call, passing the handler's arguments as they came. The
 * handler's result is the callee's, so the callee is migrated in place as if it were the handler (its
 * delegate), and the handler passes its context on: `async (args, ctx) => this.execute(args as Args, ctx)`.
 * For a method the classes of the project override, every body the call may run is a delegate (each
 * migrated as an ordinary handler), and a declaration without a body (an abstract method) takes the
 * context too. What keeps the callee from being one is a refusal that marks the call and leaves
 * every delegate as it is: a callee also called elsewhere (that caller would get input_required
 * results), one outside the run, not an async function with a block body, one taking another
 * parameter where the context goes, or one that cannot name the tool its state is bound to.
 */
import path from 'node:path';
import { Node, SyntaxKind, type CallExpression, type Project, type SourceFile } from 'ts-morph';
import { declaresMember, entryLabel, entryObjectOf } from './dispatch.js';
import { literalString, unwrap } from './mcpSymbols.js';
import { enclosingFunction, thisOwner, type FunctionLike } from './functions.js';
import { overridesOf, receiverClass } from './methods.js';
import { TOOL_METHODS, type Registration, type RegistrationLookup } from './registrations.js';
import { contextMember, tableEntries, tableRefusal, type TableDispatch } from './tableDelegates.js';
import { descendantsOfKind } from './descendants.js';

export interface Delegation {
  /** The registered handler that only returns the call. */
  handler: FunctionLike;
  registration: Registration;
  call: CallExpression;
  /** The callee as the report names it: `execute()`. */
  callee: string;
  /** The handler as the report names it: `the tools/call delete handler`, `the tools/call handler registered in BaseTool.register()`. */
  handlerName: string;
  /** Every body the call may run: the function's, or the method's and its overrides' in the project. */
  delegates: FunctionLike[];
  /** The method's declaration when it has no body (abstract): it takes the context parameter too. */
  signature?: FunctionLike;
  /**
   * Why the delegates are not taken as the handler's: their parameter then does not count as its context, and
   * their requests are migrated as any helper's. Said nowhere since replay; kept to read when a delegation is refused.
   */
  refused?: { reason: string };
  /** A call through a table's shared property (src/analysis/tableDelegates.ts): the delegates are its entries. */
  table?: TableDispatch;
}

/** A delegate as the report names it: `execute() of RouteTool`, or `runReport()`. */
export function delegateLabel(fn: FunctionLike, callee: string): string {
  const cls = Node.isMethodDeclaration(fn) ? fn.getFirstAncestorByKind(SyntaxKind.ClassDeclaration)?.getName() : undefined;
  // An entry of a table: `invoke() of deleteTool`.
  if (!cls && Node.isObjectLiteralExpression(entryObjectOf(fn))) return `${callee} of ${entryLabel(fn)}`;
  return cls ? `${callee} of ${cls}` : callee;
}

/** The registration a delegate is migrated under: its handler's, with the state bound to the same name. */
export function delegateRegistrationOf(fn: FunctionLike, lookup: RegistrationLookup): Registration | undefined {
  if (!Node.isMethodDeclaration(fn) && !Node.isFunctionDeclaration(fn) && !Node.isArrowFunction(fn) && !Node.isFunctionExpression(fn))
    return undefined;
  const delegation = delegationIndex(fn.getProject(), lookup).get(fn);
  if (!delegation || delegation.refused) return undefined;
  const { registration, table } = delegation;
  // An entry of a table is bound to its own name, and reads the context where the handler put it.
  const name = table?.names.get(fn);
  if (table && name === undefined) return undefined;
  return {
    ...registration,
    ...(table ? { nameText: name!, ctxMember: table.ctxMember } : {}),
    label: delegateLabel(fn, delegation.callee),
    delegateOf: `migrated as the delegate of ${delegation.handlerName}`,
  };
}

/** A registration call's name in a file's text. */
const REGISTERS = new RegExp(`\\b(?:${[...Object.keys(TOOL_METHODS), 'setRequestHandler'].join('|')})\\s*\\(`);

/** Per version of the program (any edit makes a new one): each delegate, with its delegation. */
const indexes = new WeakMap<object, Map<Node, Delegation>>();
/** Per version of a file: the delegations its handlers make (made again once a delegate's file has changed). */
const byFile = new WeakMap<object, Delegation[]>();

/**
 * How many files' delegations are being found: what finding a table's asking entries asks of the
 * analysis (is this parameter a handler's context?) is answered without delegations meanwhile, and
 * nothing found then is kept.
 */
let finding = 0;

function delegationIndex(project: Project, lookup: RegistrationLookup): Map<Node, Delegation> {
  if (finding > 0) return new Map();
  const program = project.getProgram().compilerObject;
  let index = indexes.get(program);
  if (index) return index;
  index = buildIndex(project, lookup);
  indexes.set(program, index);
  return index;
}

function buildIndex(project: Project, lookup: RegistrationLookup): Map<Node, Delegation> {
  const index = new Map<Node, Delegation>();
  for (const sf of project.getSourceFiles()) {
    for (const delegation of delegationsIn(sf, lookup)) for (const d of delegation.delegates) if (!index.has(d)) index.set(d, delegation);
  }
  return index;
}

function delegationsIn(sf: SourceFile, lookup: RegistrationLookup): Delegation[] {
  const cached = byFile.get(sf.compilerNode);
  const stale = (d: Delegation) =>
    d.delegates.some(f => f.wasForgotten()) || d.signature?.wasForgotten() === true || d.table?.widen?.wasForgotten() === true;
  if (cached && !cached.some(stale)) return cached;
  if (finding > 0) return [];
  finding++;
  try {
    return findDelegations(sf, lookup);
  } finally {
    finding--;
  }
}

function findDelegations(sf: SourceFile, lookup: RegistrationLookup): Delegation[] {
  const found: Delegation[] = [];
  if (!sf.isDeclarationFile() && !sf.isInNodeModules() && REGISTERS.test(sf.getFullText())) {
    for (const fn of [...descendantsOfKind(sf, SyntaxKind.ArrowFunction), ...descendantsOfKind(sf, SyntaxKind.FunctionExpression)]) {
      const delegation = Node.isCallExpression(fn.getParent()) ? delegationFrom(fn, lookup) : undefined;
      if (delegation) found.push(delegation);
    }
  }
  byFile.set(sf.compilerNode, found);
  return found;
}

function delegationFrom(handler: FunctionLike, lookup: RegistrationLookup): Delegation | undefined {
  // Read off the body first: whether a function is a registered handler is the costlier question.
  if (!onlyReturnedCall(handler)) return undefined;
  const registration = lookup.handlerRegistrationOf(handler);
  const passed = registration && delegatedCall(handler, registration);
  if (!registration || !passed) return undefined;
  const { call, ctxMember } = passed;
  const entries = tableEntries(call);
  if (entries) return ctxMember === undefined ? undefined : tableDelegation(handler, registration, call, entries, ctxMember, lookup);
  const target = ctxMember ? undefined : calleeOf(call);
  if (!target) return undefined;
  const delegation: Delegation = {
    handler,
    registration,
    call,
    callee: `${target.name}()`,
    handlerName: handlerName(registration),
    delegates: target.delegates,
    signature: target.signature,
  };
  delegation.refused = refusal(delegation, target.throughThis);
  return delegation;
}

/** A call through a table's property, passing the handler's context on: its entries are the delegates. */
function tableDelegation(
  handler: FunctionLike,
  registration: Registration,
  call: CallExpression,
  entries: FunctionLike[],
  ctxMember: string,
  lookup: RegistrationLookup,
): Delegation {
  const table: TableDispatch = { ctxMember, names: new Map(), asking: [] };
  const callee = `${(unwrap(call.getExpression()) as import('ts-morph').PropertyAccessExpression).getName()}()`;
  const delegation: Delegation = { handler, registration, call, callee, handlerName: handlerName(registration), delegates: entries, table };
  const refused = tableRefusal(call, registration, entries, table, lookup);
  if (refused) {
    table.refused = refused;
    delegation.refused = {
      reason: `the entries are not migrated as the delegates of this handler either: ${refused.why}; ${refused.fix}, or migrate by hand`,
    };
  }
  return delegation;
}

/** The call a function's body only returns (awaited or not): `=> run(a)`, `{ return await run(a); }`. */
function onlyReturnedCall(handler: FunctionLike): CallExpression | undefined {
  const body = handler.getBody();
  let returned: Node | undefined = body;
  if (body && Node.isBlock(body)) {
    const [only, ...rest] = body.getStatements();
    returned = only && rest.length === 0 && Node.isReturnStatement(only) ? only.getExpression() : undefined;
  }
  if (!returned) return undefined;
  let e = unwrap(returned);
  if (Node.isAwaitExpression(e)) e = unwrap(e.getExpression());
  return Node.isCallExpression(e) ? e : undefined;
}

/**
 * The call a handler's body only returns, passing the handler's arguments (and its context) in order;
 * `ctxMember` when it passes the context, '' as it is or `.extra` in an object literal (`{ server, extra }`).
 */
function delegatedCall(handler: FunctionLike, registration: Registration): { call: CallExpression; ctxMember?: string } | undefined {
  const e = onlyReturnedCall(handler);
  if (!e) return undefined;
  const params = handler.getParameters();
  const args = e.getArguments();
  const passed = params.slice(0, args.length);
  if (params.length < registration.ctxIndex || (args.length !== registration.ctxIndex && args.length !== registration.ctxIndex + 1))
    return undefined;
  const ctx = params[registration.ctxIndex];
  if (ctx && !Node.isIdentifier(ctx.getNameNode())) return undefined;
  const carried = args.length > registration.ctxIndex ? contextMember(args[registration.ctxIndex]!, ctx) : undefined;
  const compared = carried === undefined ? args.length : registration.ctxIndex;
  const same =
    passed.length >= compared &&
    passed.slice(0, compared).every((p, i) => {
      const arg = unwrap(args[i]!);
      return Node.isIdentifier(p.getNameNode()) && Node.isIdentifier(arg) && arg.getSymbol()?.getDeclarations()[0] === p;
    });
  return same ? { call: e, ctxMember: carried } : undefined;
}

interface Callee {
  name: string;
  delegates: FunctionLike[];
  signature?: FunctionLike;
  /** Called as `this.method(...)`: the delegate's `this` is the handler's. */
  throughThis: boolean;
}

/** The project's function, or method of `this`, a delegating call runs. */
function calleeOf(call: CallExpression): Callee | undefined {
  const callee = unwrap(call.getExpression());
  const decl = Node.isIdentifier(callee) || Node.isPropertyAccessExpression(callee) ? declarationOf(callee) : undefined;
  if (!decl || decl.getSourceFile().isDeclarationFile() || decl.getSourceFile().isInNodeModules()) return undefined;
  if (Node.isPropertyAccessExpression(callee)) {
    const receiver = unwrap(callee.getExpression());
    // The handler's this is the instance: an arrow written in a method (or a field) of the class.
    const owner = receiver.getKind() === SyntaxKind.ThisKeyword ? thisOwner(receiver) : undefined;
    const ofInstance =
      owner && (Node.isMethodDeclaration(owner) || Node.isConstructorDeclaration(owner) || Node.isPropertyDeclaration(owner));
    if (!ofInstance || !Node.isMethodDeclaration(decl)) return undefined;
    const delegates = [...(decl.getBody() ? [decl as FunctionLike] : []), ...overridesOf(decl, receiverClass(receiver))];
    if (delegates.length === 0) return undefined;
    return { name: callee.getName(), delegates, signature: decl.getBody() ? undefined : decl, throughThis: true };
  }
  const fn = Node.isVariableDeclaration(decl) ? decl.getInitializer() && unwrap(decl.getInitializer()!) : decl;
  if (!fn || !(Node.isFunctionDeclaration(fn) || Node.isArrowFunction(fn) || Node.isFunctionExpression(fn)) || !fn.getBody())
    return undefined;
  if (Node.isVariableDeclaration(decl) && decl.getVariableStatement()?.getDeclarationKind() !== 'const') return undefined;
  return { name: callee.getText(), delegates: [fn], throughThis: false };
}

function declarationOf(callee: Node): Node | undefined {
  const id = Node.isPropertyAccessExpression(callee) ? callee.getNameNode() : callee;
  const symbol = id.getSymbol();
  const target = symbol?.isAlias() ? symbol.getAliasedSymbol() : symbol;
  return target?.getDeclarations()[0];
}

/** Why the delegates cannot be migrated as the handler's, if they cannot. */
function refusal(d: Delegation, throughThis: boolean): Delegation['refused'] {
  const refuse = (why: string, fix: string) => ({
    reason: `${d.callee} is not migrated as the delegate of this handler: ${why}, so the requests it makes are not migrated; ${fix}`,
  });
  for (const fn of d.delegates) {
    const label = delegateLabel(fn, d.callee);
    const file = fn.getSourceFile();
    if (file.isSaved())
      return refuse(
        `${label} is in ${path.basename(file.getFilePath())}, which is not one of the files this run migrates`,
        "run mcp-migrate over its files and the handler's together, or migrate by hand",
      );
    if (!Node.isBlock(fn.getBody()) || !(fn as unknown as { isAsync(): boolean }).isAsync())
      return refuse(`${label} is not an async function with a block body`, 'make it one, or migrate by hand');
    const taken = fn.getParameters()[d.registration.ctxIndex];
    if (taken && d.call.getArguments().length === d.registration.ctxIndex)
      return refuse(
        `${label} takes a parameter (${taken.getName()}) where the handler's context would go`,
        "pass the handler's context there, or migrate by hand",
      );
  }
  const elsewhere = otherCall(d);
  if (elsewhere)
    return refuse(
      `it is also called in ${elsewhere}, which would get the input_required results it returns once migrated`,
      'give that caller a function of its own, or migrate by hand',
    );
  const stable =
    d.registration.args.kind === 'request' ||
    literalString(registeredName(d.registration)) !== undefined ||
    (throughThis && /^this(?:\.[\w$]+)+$/.test(d.registration.nameText));
  if (!stable)
    return refuse(
      `the name it is registered under (${d.registration.nameText}) cannot be read inside it, and its requestState must be bound to that name`,
      'register it under a literal name or a field of this, or migrate by hand',
    );
  return undefined;
}

/** Where the callee is called other than by the handler (`preview() of PreviewedTool`), or used as a value. */
function otherCall(d: Delegation): string | undefined {
  const decl = declarationOf(unwrap(d.call.getExpression()));
  const name =
    decl && (Node.isMethodDeclaration(decl) || Node.isFunctionDeclaration(decl) || Node.isVariableDeclaration(decl))
      ? decl.getNameNode()
      : undefined;
  if (!name || !Node.isIdentifier(name)) return 'a place it cannot be followed to';
  const callee = unwrap(d.call.getExpression());
  const calleeName = Node.isPropertyAccessExpression(callee) ? callee.getNameNode() : callee;
  for (const ref of name.findReferencesAsNodes()) {
    const parent = ref.getParent();
    if (ref === calleeName || !parent) continue;
    // A declaration: its own, an override's, or another entry's of a table the method is one of (src/analysis/dispatch.ts).
    if (declaresMember(ref) || ((Node.isFunctionDeclaration(parent) || Node.isVariableDeclaration(parent)) && parent.getNameNode() === ref))
      continue;
    if (Node.isImportSpecifier(parent) || Node.isExportSpecifier(parent) || Node.isImportClause(parent)) continue;
    // Named, not placed: the reason must read the same in every pass, whatever the markers above it.
    const caller = enclosingFunction(ref);
    const callerName = caller && (Node.isMethodDeclaration(caller) || Node.isFunctionDeclaration(caller)) ? caller.getName() : undefined;
    if (!caller || !callerName) return `module level of ${path.basename(ref.getSourceFile().getFilePath())}`;
    return Node.isMethodDeclaration(caller) ? delegateLabel(caller, `${callerName}()`) : `${callerName}()`;
  }
  return undefined;
}

/** The expression a handler is registered under: the registration's first argument, or what the caller of a wrapper passes for it. */
function registeredName(registration: Registration): Node | undefined {
  return registration.wrapper ? registration.wrapper.name : registration.call.getArguments()[0];
}

/** The handler as the report names it: by the name it is registered under, or where it is registered. */
function handlerName(registration: Registration): string {
  const name = literalString(registeredName(registration));
  if (name !== undefined && registration.args.kind !== 'request') return `the ${registration.method} ${name} handler`;
  const fn = enclosingFunction(registration.call);
  const where =
    fn && Node.isMethodDeclaration(fn)
      ? `${fn.getFirstAncestorByKind(SyntaxKind.ClassDeclaration)?.getName() ?? 'a class'}.${fn.getName()}()`
      : fn && Node.isFunctionDeclaration(fn) && fn.getName()
        ? `${fn.getName()}()`
        : path.basename(registration.call.getSourceFile().getFilePath());
  return `the ${registration.method} handler registered in ${where}`;
}
