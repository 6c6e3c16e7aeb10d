/**
 * Requests sent through a framework built on the SDK (src/tables/frameworks.ts): found by what the file
 * imports from the framework's package, never by the method's spelling alone. A call is the framework's
 * when its receiver is the context a callback registered on the framework's server receives, a value
 * reached from an instance the framework's constructor or factory made, or `this` in a class extending
 * the framework's base class; with the package installed, the type checker says so too.
 *
 * None of these can be rewritten into input_required phases here (the framework sends the request and
 * owns the handler): each is marked with what that framework offers for MCP 2026-07-28.
 */
import {
  Node,
  SyntaxKind,
  type CallExpression,
  type ClassDeclaration,
  type ClassExpression,
  type ParameterDeclaration,
  type SourceFile,
} from 'ts-morph';
import {
  FRAMEWORK_HELPER_CALL_CAUSE,
  FRAMEWORK_HELPER_CAUSE,
  FRAMEWORK_IMPORT,
  FRAMEWORKS,
  isFrameworkModule,
  type Framework,
  type FrameworkMethod,
} from '../tables/frameworks.js';
import type { FoundCause } from '../tables/causes.js';
import { article } from '../values.js';
import { unwrap } from './mcpSymbols.js';
import { descendantsOfKind } from './descendants.js';

export interface FrameworkRequest {
  call: CallExpression;
  framework: Framework;
  method: FrameworkMethod;
  /** The marker's and the report line's text. */
  reason: string;
  cause: FoundCause;
}

/** The cause a framework's request is reported with: its row of the causes table. */
function frameworkCause(framework: Framework): FoundCause {
  return { id: `${framework.id}-request`, text: `${framework.name} request: ${framework.status}` };
}

/** How far a receiver is followed back (locals, fields, property and element reads) to the framework's instance. */
const MAX_ORIGIN_STEPS = 6;

export function frameworkRequests(sf: SourceFile): FrameworkRequest[] {
  if (!FRAMEWORK_IMPORT.test(sf.getFullText())) return [];
  const present = FRAMEWORKS.filter(f => importsFramework(sf, f));
  if (present.length === 0) return [];
  const found: FrameworkRequest[] = [];
  for (const call of descendantsOfKind(sf, SyntaxKind.CallExpression)) {
    for (const framework of present) {
      const method = requestMethodOf(call, framework);
      if (!method) continue;
      const cause = frameworkCause(framework);
      const reason = `${method.kind} request through ${framework.name}'s ${calleeText(call)}(): ${framework.status}; ${framework.instead}`;
      found.push({ call, framework, method, reason, cause });
      break;
    }
  }
  return found;
}

/** Whether `node` is, or sits inside, one of `requests`' calls: the SDK site finder must leave it to them. */
export function claimedByFramework(node: Node, requests: readonly FrameworkRequest[]): boolean {
  return requests.some(r => r.call.getStart() <= node.getStart() && node.getEnd() <= r.call.getEnd());
}

function importsFramework(sf: SourceFile, framework: Framework): boolean {
  if (sf.getImportDeclarations().some(d => isFrameworkModule(framework, d.getModuleSpecifierValue()))) return true;
  return descendantsOfKind(sf, SyntaxKind.CallExpression).some(c => {
    const arg = c.getArguments()[0];
    return c.getExpression().getText() === 'require' && Node.isStringLiteral(arg) && isFrameworkModule(framework, arg.getLiteralValue());
  });
}

function calleeText(call: CallExpression): string {
  return call.getExpression().getText().replace(/\s+/g, '');
}

function requestMethodOf(call: CallExpression, framework: Framework): FrameworkMethod | undefined {
  const callee = unwrap(call.getExpression());
  const name = Node.isPropertyAccessExpression(callee) ? callee.getName() : Node.isIdentifier(callee) ? callee.getText() : undefined;
  return framework.methods.find(m => m.name === name && calledOn(callee, m, framework));
}

function calledOn(callee: Node, method: FrameworkMethod, framework: Framework): boolean {
  if (Node.isIdentifier(callee)) return method.on === 'context' && isDestructuredFromContext(callee, framework);
  if (!Node.isPropertyAccessExpression(callee)) return false;
  const receiver = unwrap(callee.getExpression());
  switch (method.on) {
    case 'context':
      return isContext(receiver, framework);
    case 'instance':
      return reachedFromInstance(receiver, framework, 0);
    case 'this':
      return Node.isThisExpression(receiver) && inFrameworkClass(receiver, framework);
    case 'this.server.server':
      return isThisServerServer(receiver) && inFrameworkClass(receiver, framework);
  }
}

/** The name `node` (an identifier, or `ns.Name`) is imported as from the framework's package. */
function frameworkExport(node: Node, framework: Framework): string | undefined {
  if (Node.isPropertyAccessExpression(node)) {
    const ns = node.getExpression();
    const isNamespace =
      Node.isIdentifier(ns) &&
      (ns.getSymbol()?.getDeclarations() ?? []).some(d => {
        const module = d.getFirstAncestorByKind(SyntaxKind.ImportDeclaration)?.getModuleSpecifierValue();
        return Node.isNamespaceImport(d) && module !== undefined && isFrameworkModule(framework, module);
      });
    return isNamespace ? node.getName() : undefined;
  }
  if (!Node.isIdentifier(node)) return undefined;
  for (const decl of node.getSymbol()?.getDeclarations() ?? []) {
    if (Node.isImportSpecifier(decl) && isFrameworkModule(framework, decl.getImportDeclaration().getModuleSpecifierValue()))
      return decl.getName();
    const declaration = Node.isImportClause(decl) ? decl.getParent() : undefined;
    if (Node.isImportDeclaration(declaration) && isFrameworkModule(framework, declaration.getModuleSpecifierValue())) return 'default';
  }
  return undefined;
}

/** With the framework installed: whether the type of `node` is declared by its package. */
function typedByFramework(node: Node, framework: Framework): boolean {
  const type = node.getType().getNonNullableType();
  const symbol = type.getSymbol() ?? type.getAliasSymbol();
  const inPackage = `/node_modules/${framework.packageDir}/`;
  return (symbol?.getDeclarations() ?? []).some(d => d.getSourceFile().getFilePath().includes(inPackage));
}

function annotatedByFramework(param: ParameterDeclaration, framework: Framework): boolean {
  const typeNode = param.getTypeNode();
  if (!typeNode || !Node.isTypeReference(typeNode)) return false;
  return frameworkExport(typeNode.getTypeName(), framework) !== undefined;
}

function isContext(receiver: Node, framework: Framework): boolean {
  if (!Node.isIdentifier(receiver)) return false;
  return (receiver.getSymbol()?.getDeclarations() ?? []).some(d => Node.isParameterDeclaration(d) && isContextParameter(d, framework));
}

/** `elicit(...)` where `{ elicit }` is destructured from a registered callback's context parameter. */
function isDestructuredFromContext(callee: Node, framework: Framework): boolean {
  return (callee.getSymbol()?.getDeclarations() ?? []).some(d => {
    const param = Node.isBindingElement(d) ? d.getFirstAncestorByKind(SyntaxKind.Parameter) : undefined;
    return param !== undefined && d.getParent() === param.getNameNode() && isContextParameter(param, framework);
  });
}

/**
 * The context a callback registered on the framework's server receives: a parameter after the first of a
 * function passed to a method of the framework's instance (directly, or as a property of an object passed
 * there: `server.addTool({ execute: async (args, context) => ... })`), or one typed with the framework's type.
 */
function isContextParameter(param: ParameterDeclaration, framework: Framework): boolean {
  if (annotatedByFramework(param, framework) || typedByFramework(param, framework)) return true;
  const fn = param.getParent();
  return 'getParameters' in fn && fn.getParameters().indexOf(param) >= 1 && passedToInstance(fn, framework);
}

/** Whether `fn` is passed to a method of the framework's instance, directly or as a property of an object passed there. */
function passedToInstance(fn: Node, framework: Framework): boolean {
  let passed: Node = fn;
  const holder = fn.getParent();
  if (Node.isPropertyAssignment(holder)) passed = holder.getParent();
  else if (Node.isObjectLiteralExpression(holder)) passed = holder;
  const call = passed.getParent();
  if (!Node.isCallExpression(call) || !call.getArguments().includes(passed)) return false;
  const callee = unwrap(call.getExpression());
  return Node.isPropertyAccessExpression(callee) && reachedFromInstance(callee.getExpression(), framework, 0);
}

/** Whether `expr` is made by the framework's constructor or factory, or read from such an instance (`server.sessions[0]`). */
function reachedFromInstance(expr: Node, framework: Framework, steps: number): boolean {
  if (steps > MAX_ORIGIN_STEPS) return false;
  const value = unwrap(expr);
  const node = Node.isAwaitExpression(value) ? unwrap(value.getExpression()) : value;
  if (Node.isNewExpression(node) || Node.isCallExpression(node)) {
    const made = unwrap(node.getExpression());
    if (frameworkExport(made, framework) !== undefined) return true;
    return (
      Node.isCallExpression(node) &&
      Node.isPropertyAccessExpression(made) &&
      reachedFromInstance(made.getExpression(), framework, steps + 1)
    );
  }
  if (Node.isPropertyAccessExpression(node) || Node.isElementAccessExpression(node))
    return reachedFromInstance(node.getExpression(), framework, steps + 1);
  if (!Node.isIdentifier(node)) return false;
  for (const decl of node.getSymbol()?.getDeclarations() ?? []) {
    // A parameter typed with the framework's type, or of a callback the instance calls (`server.on('connect', event => ...)`).
    if (Node.isParameterDeclaration(decl) && (annotatedByFramework(decl, framework) || passedToInstance(decl.getParent(), framework)))
      return true;
    if ((Node.isVariableDeclaration(decl) || Node.isPropertyDeclaration(decl)) && decl.getInitializer()) {
      if (reachedFromInstance(decl.getInitializer()!, framework, steps + 1)) return true;
    }
  }
  return typedByFramework(node, framework);
}

function isThisServerServer(receiver: Node): boolean {
  if (!Node.isPropertyAccessExpression(receiver) || receiver.getName() !== 'server') return false;
  const inner = unwrap(receiver.getExpression());
  return Node.isPropertyAccessExpression(inner) && inner.getName() === 'server' && Node.isThisExpression(unwrap(inner.getExpression()));
}

/** Whether `this` at `node` is an instance of a class extending one of the framework's base classes. */
function inFrameworkClass(node: Node, framework: Framework): boolean {
  for (let n = node.getParent(); n; n = n.getParent()) {
    if (Node.isFunctionDeclaration(n) || Node.isFunctionExpression(n)) return false;
    if (Node.isClassDeclaration(n) || Node.isClassExpression(n)) return extendsFramework(n, framework, 0);
  }
  return false;
}

function extendsFramework(cls: ClassDeclaration | ClassExpression, framework: Framework, depth: number): boolean {
  const base = cls.getExtends()?.getExpression();
  if (!base || depth > MAX_ORIGIN_STEPS) return false;
  const exported = frameworkExport(unwrap(base), framework);
  if (exported !== undefined) return (framework.baseClasses ?? []).includes(exported);
  // Through a class of the project's (or, installed, the framework's own declaration re-exported).
  const declared = cls.getBaseClass();
  if (!declared) return false;
  if (declared.getSourceFile().getFilePath().includes(`/node_modules/${framework.packageDir}/`))
    return (framework.baseClasses ?? []).includes(declared.getName() ?? '');
  return extendsFramework(declared, framework, depth + 1);
}

/** A project's own base-class method that sends a request, and its subclasses' calls of it. */
export interface BaseClassHelper {
  /** `BaseTool.samplingRequest`. */
  name: string;
  /** The helper's marker. */
  reason: string;
  calls: { node: CallExpression; reason: string }[];
}

/**
 * A method sending a `kind` request that subclasses of its class call through `this` (or `super`): the
 * request API a framework written on the SDK gives its tools. It cannot become input_required where it
 * is (the method returns the answer to its caller, mid-execute), so the method is the API to redesign
 * and each subclass call is reported with it.
 */
export function baseClassHelper(fn: Node, kind: string): BaseClassHelper | undefined {
  if (!Node.isMethodDeclaration(fn)) return undefined;
  const cls = fn.getParent();
  if (!Node.isClassDeclaration(cls) && !Node.isClassExpression(cls)) return undefined;
  const nameNode = fn.getNameNode();
  if (!Node.isIdentifier(nameNode)) return undefined;
  const name = `${cls.getName() ?? 'a base class'}.${fn.getName()}`;
  const inSubclass = nameNode.findReferencesAsNodes().flatMap(ref => {
    const access = ref.getParent();
    const call = access?.getParent();
    if (
      !Node.isPropertyAccessExpression(access) ||
      access.getNameNode() !== ref ||
      !Node.isCallExpression(call) ||
      call.getExpression() !== access
    )
      return [];
    const receiver = unwrap(access.getExpression());
    if (!Node.isThisExpression(receiver) && receiver.getKind() !== SyntaxKind.SuperKeyword) return [];
    const caller = receiver.getFirstAncestor(n => Node.isClassDeclaration(n) || Node.isClassExpression(n));
    return caller && isSubclassOf(caller as ClassDeclaration | ClassExpression, cls) ? [call] : [];
  });
  if (inSubclass.length === 0) return undefined;
  const count = `${inSubclass.length} subclass ${inSubclass.length === 1 ? 'call is' : 'calls are'} marked where made`;
  const reason = `${FRAMEWORK_HELPER_CAUSE}: ${name}() sends ${article(kind)} ${kind} request and returns the answer to the subclass that calls it (${count}); MCP 2026-07-28 has no server-initiated requests: a tool returns inputRequired({ inputRequests }) and gets the answers on the retry (ctx.mcpReq.inputResponses), so redesign this API that way (e.g. a helper that builds the input request, and one that reads its answer), then move each subclass's tool onto it; left as it is, it serves 2025-era clients only`;
  const calls = inSubclass.map(node => ({
    node,
    reason: `${FRAMEWORK_HELPER_CALL_CAUSE}: calls ${name}(), which sends ${article(kind)} ${kind} request and is an API to redesign for MCP 2026-07-28 (see its marker); migrate this call with it`,
  }));
  return { name, reason, calls };
}

/** Whether `cls` extends `base`, directly or through classes between (a base class calling its own abstract method is not one). */
function isSubclassOf(cls: ClassDeclaration | ClassExpression, base: ClassDeclaration | ClassExpression): boolean {
  let current = cls.getBaseClass();
  for (let depth = 0; current && depth <= MAX_ORIGIN_STEPS; depth++, current = current.getBaseClass()) if (current === base) return true;
  return false;
}
