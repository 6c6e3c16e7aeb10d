/**
 * Tool tables whose entries are migrated as the handler's delegates. A handler registered for each
 * entry (`for (const t of tools) server.registerTool(t.name, config, (args, ctx) => t.invoke(args, { server, extra: ctx }))`)
 * only returns a call through the property the entries share, so whichever entry runs gives the
 * handler's result, as a method and its overrides do for a class (src/analysis/delegates.ts). Each
 * entry that makes a request is migrated in place as the handler's delegate: its state bound to its
 * own name (the literal of its `name`, or `this.name` for a class, which is what `t.name` reads), its
 * context read where the handler put it (`ctx.extra`), and the table's declaration of the member
 * (an interface's method) returns InputRequiredResult too. Every entry that asks is migrated, or none
 * is: what keeps one from it refuses the delegation, and the call keeps the dispatch's marker.
 */
import path from 'node:path';
import {
  Node,
  SyntaxKind,
  type CallExpression,
  type ClassDeclaration,
  type ParameterDeclaration,
  type PropertyAccessExpression,
} from 'ts-morph';
import { declaresMember, entriesOf, entryLabel, entryObjectOf, usesEntry } from './dispatch.js';
import { literalString, mcpImportOf, unwrap } from './mcpSymbols.js';
import { enclosingFunction, type FunctionLike } from './functions.js';
import type { Registration, RegistrationLookup } from './registrations.js';

export interface TableDispatch {
  /** Where the entry finds the handler's context in its context parameter: '' (the parameter itself), or `.extra`. */
  ctxMember: string;
  /** Each asking entry's name as its state is bound to it: the literal as written, or `this.name`. */
  names: Map<Node, string>;
  /** The entries that make a request: those migrated. */
  asking: FunctionLike[];
  /** The table's declaration of the member (an interface's method, or its function type), whose result is widened. */
  widen?: Node;
  /** Why the entries that ask are not taken as the handler's delegates (see Delegation.refused). */
  refused?: { why: string; fix: string };
}

/**
 * What the handler passes its context as, at the argument `arg`: '' for the context itself, `.extra`
 * for an object literal holding it in one property (`{ server, extra }`, `{ server, extra: ctx }`).
 */
export function contextMember(arg: Node, ctx: ParameterDeclaration | undefined): string | undefined {
  const e = unwrap(arg);
  const isCtx = (n: Node | undefined) =>
    ctx !== undefined && n !== undefined && Node.isIdentifier(unwrap(n)) && unwrap(n).getSymbol()?.getDeclarations()[0] === ctx;
  if (isCtx(e)) return '';
  if (!Node.isObjectLiteralExpression(e)) return undefined;
  const holding = e
    .getProperties()
    .filter(p =>
      Node.isShorthandPropertyAssignment(p)
        ? p.getValueSymbol()?.getDeclarations()[0] === ctx
        : Node.isPropertyAssignment(p) && isCtx(p.getInitializer()),
    );
  const [only] = holding;
  if (holding.length !== 1 || !only || !Node.isIdentifier((only as import('ts-morph').PropertyAssignment).getNameNode())) return undefined;
  return `.${(only as import('ts-morph').PropertyAssignment).getName()}`;
}

/** The entries a call through a table's shared property may run (`t.invoke(...)`), or undefined when it is no such call. */
export function tableEntries(call: CallExpression): FunctionLike[] | undefined {
  const callee = unwrap(call.getExpression());
  return Node.isPropertyAccessExpression(callee) ? entriesOf(callee) : undefined;
}

/** Why the entries of a table cannot be migrated as the handler's delegates (a clause and a fix), filling `table` as it goes. */
export function tableRefusal(
  call: CallExpression,
  registration: Registration,
  entries: FunctionLike[],
  table: TableDispatch,
  lookup: RegistrationLookup,
): { why: string; fix: string } | undefined {
  const access = unwrap(call.getExpression()) as PropertyAccessExpression;
  const member = access.getName();
  const named = registeredProperty(registration, access);
  if (!named)
    return {
      why: `it is registered under ${registration.nameText}, not a property of the entry ${access.getExpression().getText()} that the call runs, so no entry can read the name its requestState must be bound to`,
      fix: 'register each entry under its own name property',
    };
  table.asking = entries.filter(fn => lookup.makesRequest(fn));
  const widen = widenedDeclaration(access);
  if (widen && widen.getSourceFile().isSaved())
    return {
      why: `the table's declaration of ${member}() is in ${path.basename(widen.getSourceFile().getFilePath())}, which is not one of the files this run migrates (its result must admit InputRequiredResult)`,
      fix: "run mcp-migrate over that file and the handler's together",
    };
  table.widen = widen;
  for (const fn of table.asking) {
    const label = `${member}() of ${entryLabel(fn)}`;
    const file = fn.getSourceFile();
    if (file.isSaved())
      return {
        why: `${label} is in ${path.basename(file.getFilePath())}, which is not one of the files this run migrates`,
        fix: "run mcp-migrate over its files and the handler's together",
      };
    const param = contextProblem(fn, registration, table.ctxMember);
    if (param) return { why: `${label} ${param.problem}`, fix: param.fix };
    const name = entryName(fn, named);
    if (!name)
      return {
        why: `the ${named} of ${entryLabel(fn)} is not a string literal, so ${label} cannot bind its requestState to the name it is registered under`,
        fix: `give it a literal ${named}`,
      };
    table.names.set(fn, name);
    const elsewhere = otherUse(fn, access, lookup);
    if (elsewhere)
      return {
        why: `${label} is also called in ${elsewhere}, which would get the input_required results it returns once migrated`,
        fix: 'give that caller a function of its own',
      };
  }
  return undefined;
}

/** The property of the entry the handler is registered under: `name` of `t.name`, `t` the receiver of the call. */
function registeredProperty(registration: Registration, access: PropertyAccessExpression): string | undefined {
  if (registration.args.kind === 'request') return undefined;
  const name = registration.wrapper ? registration.wrapper.name : registration.call.getArguments()[0];
  const e = name && unwrap(name);
  if (!e || !Node.isPropertyAccessExpression(e)) return undefined;
  const receiver = unwrap(e.getExpression());
  const dispatched = unwrap(access.getExpression());
  if (!Node.isIdentifier(receiver) || !Node.isIdentifier(dispatched)) return undefined;
  const same = receiver.getSymbol() !== undefined && receiver.getSymbol() === dispatched.getSymbol();
  return same ? e.getName() : undefined;
}

/** The entry's name as its phases name it: the literal of an object literal's property, `this.<name>` for a class declaring it so. */
function entryName(fn: FunctionLike, property: string): string | undefined {
  const holder = entryObjectOf(fn);
  if (holder && Node.isObjectLiteralExpression(holder)) {
    const p = holder.getProperty(property);
    const value = p && Node.isPropertyAssignment(p) ? p.getInitializer() : undefined;
    return value && literalString(value) !== undefined ? unwrap(value).getText() : undefined;
  }
  if (!holder || !Node.isClassDeclaration(holder) || !Node.isMethodDeclaration(fn)) return undefined;
  for (let cls: ClassDeclaration | undefined = holder; cls; cls = cls.getBaseClass()) {
    const p = cls.getProperty(property);
    if (!p) continue;
    // Read when the entry runs: the class's own literal (a subclass may give its own).
    const init = p.getInitializer();
    return !p.isStatic() && init && literalString(init) !== undefined ? `this.${property}` : undefined;
  }
  return undefined;
}

/** What is wrong with where the entry takes its context, if anything, and what to do: a destructured parameter, none a method could be given, another type. */
function contextProblem(fn: FunctionLike, registration: Registration, ctxMember: string): { problem: string; fix: string } | undefined {
  const param = fn.getParameters()[registration.ctxIndex];
  // Given one where it has none: the context itself is typed ServerContext; a member of an object, by the table's declaration, which a method does not read.
  if (!param)
    return Node.isMethodDeclaration(fn) && ctxMember !== ''
      ? { problem: 'declares no parameter for the context it is handed', fix: 'declare it (ctx)' }
      : undefined;
  if (!Node.isIdentifier(param.getNameNode()))
    return { problem: `destructures the context it is handed (${param.getNameNode().getText()})`, fix: 'name its context parameter (ctx)' };
  const typed = contextTypeProblem(param, ctxMember);
  return typed ? { problem: typed, fix: "type it as the handler's context (ServerContext)" } : undefined;
}

/**
 * The handler's context must arrive typed as one: the entry's parameter (or its member holding the
 * context) declared with the SDK's context type, `any`, or no type of its own. Anything else (a type of
 * the project's) would not take the 2.x context the phases read.
 */
function contextTypeProblem(param: ParameterDeclaration, ctxMember: string): string | undefined {
  if (ctxMember === '')
    return acceptsContext(param.getTypeNode()) ? undefined : `types the context it is handed as ${param.getTypeNode()!.getText()}`;
  const property = param.getType().getProperty(ctxMember.slice(1));
  const declaration = property?.getDeclarations()[0];
  if (!declaration) return undefined;
  const typeNode = Node.isPropertySignature(declaration) || Node.isPropertyDeclaration(declaration) ? declaration.getTypeNode() : undefined;
  return acceptsContext(typeNode)
    ? undefined
    : `reads the handler's context from ${ctxMember.slice(1)}, typed ${typeNode!.getText()}, not as the SDK's context`;
}

function acceptsContext(type: Node | undefined): boolean {
  if (!type || type.getKind() === SyntaxKind.AnyKeyword) return true;
  if (!Node.isTypeReference(type)) return false;
  const imported = mcpImportOf(type.getTypeName());
  return imported !== undefined && /^(RequestHandlerExtra|ServerContext|BaseContext)$/.test(imported.exportName);
}

/** The table's declaration of the member the call goes through: an interface's (or type literal's) method or function-typed property. */
function widenedDeclaration(access: PropertyAccessExpression): Node | undefined {
  for (const d of access.getNameNode().getSymbol()?.getDeclarations() ?? []) {
    if (Node.isMethodSignature(d) && d.getReturnTypeNode()) return d;
    const type = Node.isPropertySignature(d) ? d.getTypeNode() : undefined;
    if (type && Node.isFunctionTypeNode(type)) return type;
  }
  return undefined;
}

/** Where the entry's function is used other than by the dispatching call (`deleteTool.invoke(...)` in another handler). */
function otherUse(fn: FunctionLike, access: PropertyAccessExpression, lookup: RegistrationLookup): string | undefined {
  const holder = entryObjectOf(fn);
  const member = Node.isMethodDeclaration(fn) ? fn : fn.getParent();
  const name = member && (Node.isMethodDeclaration(member) || Node.isPropertyAssignment(member)) ? member.getNameNode() : undefined;
  if (!holder || !name || !Node.isIdentifier(name)) return 'a place it cannot be followed to';
  for (const ref of name.findReferencesAsNodes()) {
    if (ref === name || ref === access.getNameNode() || declaresMember(ref) || !usesEntry(ref, fn)) continue;
    const caller = enclosingFunction(ref);
    const registration = caller && lookup.registrationOf(caller);
    if (registration) return `the ${registration.label} handler`;
    const callerName = caller && (Node.isMethodDeclaration(caller) || Node.isFunctionDeclaration(caller)) ? caller.getName() : undefined;
    return callerName ? `${callerName}()` : `${path.basename(ref.getSourceFile().getFilePath())}`;
  }
  return undefined;
}
