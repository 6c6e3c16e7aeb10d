/**
 * Where a helper that makes a server-initiated request is still called from, once its handler calls
 * were inlined: each call the migration leaves, with why it cannot be migrated there, so that the
 * call is marked and reported (counted as left) and the helper's own marker can say what truly
 * happened to its callers. Calls from another helper are followed to that helper's callers, a few
 * helpers up; a helper bound or stored in a variable or property is followed to that holder's calls.
 */
import { Node, SyntaxKind, type CallExpression } from 'ts-morph';
import type { SiteKind } from '../report.js';
import { declaresMember, entryNames, usesEntry } from './dispatch.js';
import { serverKindOf, unwrap, type ServerKind } from './mcpSymbols.js';
import { describeNonHandler, enclosingFunction, registrationOf, type FunctionLike, type NonHandler } from './sites.js';

/** A call (or a use as a value) the migration leaves, with the marker's reason and what the summary counts it by. */
export interface LeftCall {
  node: Node;
  reason: string;
  cause: string;
  /** What calls it: a handler's label, or what kind of non-handler. */
  caller: string;
}

export interface HelperCallers {
  /** Calls marked here: outside any handler, through a stored function, or the helper passed on as a value. */
  left: LeftCall[];
  /** Handler calls the inliner marked already (not inlined, with why). */
  refused: number;
}

/** How many helpers up the callers of a helper are followed. */
const CALLER_DEPTH = 5;

/** The calls left of `fn` (a helper making a `kind` request), and of the helpers that call it, in the project. */
export function callersLeft(fn: FunctionLike, kind: SiteKind): HelperCallers {
  const found: HelperCallers = { left: [], refused: 0 };
  const request = kind === 'request' ? 'a request' : `${/^[aeiou]/.test(kind) ? 'an' : 'a'} ${kind} request`;
  const seen = new Set<Node>([fn]);
  let level = [fn];
  for (let depth = 0; depth < CALLER_DEPTH && level.length > 0; depth++) {
    const next: FunctionLike[] = [];
    for (const g of level) {
      const name = nameOf(g);
      if (!name) continue;
      const makes = g === fn ? `, which makes ${request}` : `, which reaches ${request} (in ${nameOf(fn)?.getText() ?? 'a helper'}())`;
      const uses = new Set(entryNames(g, name).flatMap(usesOf).filter(use => usesEntry(use, g)));
      for (const use of uses) {
        const call = callOf(use);
        const parent = use.getParent();
        if (parent && Node.isBindingElement(parent)) {
          // `const { ask } = await import('./ask.js')`: its calls are calls of the helper (the inliner marks those in handlers).
          for (const local of usesOf(parent.getNameNode())) classify(callOf(local), makes, false);
          continue;
        }
        if (!call) {
          const holder = holderOf(use);
          if (holder) for (const held of usesOf(holder)) classify(callOf(held), `, bound to ${name.getText()}()${makes}`, true);
          else if (!use.getFirstAncestorByKind(SyntaxKind.TypeQuery)) found.left.push(valueUse(use, `${name.getText()}()${makes}`));
          continue;
        }
        classify(call, makes, false);
      }
    }
    level = next;

    /** A call of `g` (or of a holder of it): counted, marked, or followed up to its own callers. */
    function classify(call: CallExpression | undefined, makes: string, throughHolder: boolean): void {
      if (!call) return;
      const what = `${call.getExpression().getText()}()${makes}`;
      const caller = enclosingFunction(call);
      const registration = caller && registrationOf(caller);
      if (registration && !throughHolder) {
        found.refused++;
        return;
      }
      if (registration) {
        const reason = `calls ${what}: it is not inlined (it is called through a stored function), so the request is not migrated; call the helper by its name in the handler, or migrate by hand`;
        found.left.push({ node: call, reason, cause: 'a helper that makes a request, called through a stored function', caller: registration.label });
        return;
      }
      const non = describeNonHandler(caller, call);
      if (non.kind === 'helper' && caller) {
        if (!seen.has(caller)) next.push(caller);
        seen.add(caller);
        return;
      }
      found.left.push({ node: call, reason: `calls ${what}, ${non.detail}: ${non.fate ?? callerRedesign(non.kind)}`, cause: `a helper that makes a request, called ${CALLER_CAUSE[non.kind]}`, caller: non.kind });
    }
  }
  return found;
}

/** A helper used as a value, neither called nor stored where its calls could be followed: set as a notification handler, or passed on. */
function valueUse(use: Node, helper: string): LeftCall {
  const to = use.getParent();
  const passedTo = to && Node.isCallExpression(to) && to.getArguments().includes(use) ? to.getExpression().getText() : undefined;
  if (passedTo && /\bsetNotificationHandler$/.test(passedTo)) {
    return { node: use, reason: `${helper}, is a notification handler here: ${callerRedesign('notification')}`, cause: `a helper that makes a request, called ${CALLER_CAUSE.notification}`, caller: 'notification' };
  }
  const reason = `${helper}, is ${passedTo ? `passed to ${passedTo}()` : 'passed on as a value'} here: what calls it cannot be followed, so the request is not migrated for those callers; call it by its name from a tools/call, prompts/get or resources/read handler, or migrate by hand`;
  return { node: use, reason, cause: 'a helper that makes a request, passed on as a value', caller: 'value' };
}

const handed = new WeakMap<Node, ServerKind | undefined>();

/**
 * A helper's parameter that a call in the project hands a server (`confirm(mcp.server, q)` for `function
 * confirm(server: Asker, ...)`, typed by an interface of the project, `any`, or untyped JavaScript): the
 * server whose requests the helper's body makes, where its type does not say so. Also a parameter handed
 * on from a helper's parameter that is handed a server (`askColour(server)` calling `askWith(server, q)`).
 */
export function handedServerKind(target: Node): ServerKind | undefined {
  const e = unwrap(target);
  // `server.server` of a handed McpServer: the low-level Server.
  if (Node.isPropertyAccessExpression(e) && e.getName() === 'server') return handedServerKind(e.getExpression()) === 'McpServer' ? 'Server' : undefined;
  const param = Node.isIdentifier(e) ? e.getSymbol()?.getDeclarations().find(d => Node.isParameterDeclaration(d)) : undefined;
  if (!param || !Node.isParameterDeclaration(param) || !Node.isIdentifier(param.getNameNode())) return undefined;
  if (handed.has(param)) return handed.get(param);
  handed.set(param, undefined); // a helper handing its parameter to itself
  const fn = param.getParent() as FunctionLike;
  const index = fn.getParameters().indexOf(param);
  const name = nameOf(fn);
  const kind = name ? usesOf(name).map(use => callOf(use)?.getArguments()[index]).map(arg => arg && (serverKindOf(arg) ?? handedServerKind(arg))).find(k => k !== undefined) : undefined;
  handed.set(param, kind);
  return kind;
}

/** The name a function is declared or assigned by, whose references are its uses. */
function nameOf(fn: FunctionLike): Node | undefined {
  if (Node.isFunctionDeclaration(fn) || Node.isMethodDeclaration(fn)) return fn.getNameNode();
  const parent = fn.getParent();
  if (parent && (Node.isVariableDeclaration(parent) || Node.isPropertyAssignment(parent) || Node.isPropertyDeclaration(parent)) && (parent.getInitializer() as Node | undefined) === fn) {
    const name = parent.getNameNode();
    return Node.isIdentifier(name) ? name : undefined;
  }
  return undefined;
}

/** The uses of a name across the project (not the name itself, nor the imports and exports that pass it on). */
function usesOf(name: Node): Node[] {
  if (!Node.isIdentifier(name)) return [];
  return name.findReferencesAsNodes().filter(r => {
    const parent = r.getParent();
    // An import or an export: a name passed on, whose own uses are among the references.
    if (r === name || (parent && (Node.isImportSpecifier(parent) || Node.isImportClause(parent) || Node.isExportSpecifier(parent) || Node.isExportAssignment(parent)))) return false;
    // The method it overrides (or an override of it), another entry's of a table, an interface's: a declaration, not a use.
    return !declaresMember(r);
  });
}

/** The call a use of a name makes, `ask(...)` or `this.ask(...)`. */
function callOf(use: Node): CallExpression | undefined {
  const parent = use.getParent();
  const callee = parent && Node.isPropertyAccessExpression(parent) && parent.getNameNode() === use ? parent : use;
  const call = callee.getParent();
  return call && Node.isCallExpression(call) && call.getExpression() === callee ? call : undefined;
}

/** The variable or property a function is stored in (`const f = ask`, `static f = this.ask.bind(this)`), whose calls are its calls. */
function holderOf(use: Node): Node | undefined {
  let value: Node = use;
  const up = () => value.getParent();
  if (Node.isPropertyAccessExpression(up()) && (up() as import('ts-morph').PropertyAccessExpression).getNameNode() === value) value = up()!;
  const bind = up();
  if (bind && Node.isPropertyAccessExpression(bind) && bind.getName() === 'bind' && Node.isCallExpression(bind.getParent())) value = bind.getParent()!;
  while (Node.isParenthesizedExpression(up()) || Node.isAsExpression(up())) value = up()!;
  const holder = up();
  if (holder && (Node.isVariableDeclaration(holder) || Node.isPropertyDeclaration(holder) || Node.isPropertyAssignment(holder)) && holder.getInitializer() === value) {
    const name = holder.getNameNode();
    return Node.isIdentifier(name) ? name : undefined;
  }
  return undefined;
}

/** What to do about a call, outside a handler, of a helper that asks the client something. */
function callerRedesign(kind: NonHandler['kind']): string {
  switch (kind) {
    case 'notification':
      return 'a notification handler cannot ask the client anything on MCP 2026-07-28 (only tools/call, prompts/get and resources/read can, by returning input_required); do not ask here: clear what the answer would refresh and let the next tool call that needs it ask';
    case 'lifecycle':
    case 'other-request':
      return 'only tools/call, prompts/get and resources/read can ask the client on MCP 2026-07-28 (they return input_required); ask from inside the tool that needs it, or read it lazily there';
    default:
      return 'only a tools/call, prompts/get or resources/read handler can ask the client on MCP 2026-07-28 (it returns input_required); call it from one (it is inlined there), or take what it asks for as an argument';
  }
}

const CALLER_CAUSE: Record<NonHandler['kind'], string> = {
  helper: 'from a helper',
  'shared-handler': 'from a handler that is also called or exported',
  'wrapped-handler': 'from a handler wrapped by a function of the project',
  generator: 'from a generator',
  'other-request': 'from a request handler other than tools/call, prompts/get or resources/read',
  notification: 'from a notification handler',
  lifecycle: 'from a lifecycle callback',
  callback: 'from a callback (an HTTP route, a timer, a handler\'s callback)',
  wrapped: 'from a handler registered through a wrapper of the project that is not migrated as its handler',
  'class-member': 'from a getter, setter, constructor or static block of a class',
  'top-level': 'at module level'
};
