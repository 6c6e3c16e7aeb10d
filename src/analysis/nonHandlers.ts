/**
 * Why a function holding a request is not a handler the run migrates: a helper, a callback, a lifecycle hook,
 * another request's handler, a handler wrapped or shared in a way that keeps it from being one. What the
 * report and the marker say of a site in it.
 */
import { Node, SyntaxKind } from 'ts-morph';
import type { FunctionLike } from './functions.js';
import { mcpImportOf, overridingClass, unwrap } from './mcpSymbols.js';
import { passThroughOf } from './passThrough.js';
import { callbackArgument, calleeName, registeredWrapperCallOf, sharedRegistration, TOOL_METHODS, usesByName } from './registrations.js';
import { registrations } from './sites.js';
import { wrappingOf } from './wrappers.js';

export type NonHandler = {
  kind:
    | 'helper'
    | 'shared-handler'
    | 'wrapped-handler'
    | 'generator'
    | 'other-request'
    | 'notification'
    | 'lifecycle'
    | 'callback'
    | 'wrapped'
    | 'class-member'
    | 'top-level';
  detail: string;
  /** What became of it and what to do, when the kind does not say it alone. */
  fate?: string;
};

/**
 * A class's getter, setter, constructor or static block around a request that no function encloses
 * (`get confirmation() { return this.server.server.elicitInput(...) }`): enclosingFunction does not stop
 * there, and "at module level" would not be true of it.
 */
function classMemberAround(site: Node): NonHandler | undefined {
  const member = site.getFirstAncestor(
    a =>
      Node.isGetAccessorDeclaration(a) ||
      Node.isSetAccessorDeclaration(a) ||
      Node.isConstructorDeclaration(a) ||
      Node.isClassStaticBlockDeclaration(a),
  );
  if (!member) return undefined;
  const owner = member.getParent();
  const cls = owner && (Node.isClassDeclaration(owner) || Node.isClassExpression(owner)) ? owner.getName() : undefined;
  const of = cls ? ` of class ${cls}` : ' of a class';
  const what = Node.isGetAccessorDeclaration(member)
    ? `the getter ${member.getName()}`
    : Node.isSetAccessorDeclaration(member)
      ? `the setter ${member.getName()}`
      : Node.isConstructorDeclaration(member)
        ? 'the constructor'
        : 'the static block';
  return { kind: 'class-member', detail: `in ${what}${of}, not in a handler` };
}

/**
 * A callback the SDK itself runs for a request other than tools/call, prompts/get or resources/read: a
 * ResourceTemplate's `list` (resources/list) or `complete` callbacks, or `completable(schema, complete)`'s
 * (completion/complete). Neither is a helper nor a callback the handler passes on: no handler calls it.
 */
export function sdkCallbackOf(fn: FunctionLike): string | undefined {
  const parent = fn.getParent();
  if (
    parent &&
    Node.isCallExpression(parent) &&
    parent.getArguments()[1] === fn &&
    mcpImportOf(unwrap(parent.getExpression()))?.exportName === 'completable'
  ) {
    return 'in the completion callback of completable(), which answers completion/complete, not tools/call, prompts/get or resources/read';
  }
  // `list: async () => ...` or `async list() { ... }`
  const property =
    parent && Node.isPropertyAssignment(parent) && parent.getInitializer() === (fn as Node)
      ? parent
      : Node.isMethodDeclaration(fn)
        ? fn
        : undefined;
  let holder = property?.getParent();
  // `complete: { name: async value => ... }`: one level further out.
  const outer = holder?.getParent();
  if (holder && Node.isObjectLiteralExpression(holder) && outer && Node.isPropertyAssignment(outer) && outer.getName() === 'complete')
    holder = outer.getParent();
  const created = holder && Node.isObjectLiteralExpression(holder) ? holder.getParent() : undefined;
  if (
    !property ||
    !created ||
    !Node.isNewExpression(created) ||
    mcpImportOf(unwrap(created.getExpression()))?.exportName !== 'ResourceTemplate'
  )
    return undefined;
  return property.getName() === 'list'
    ? 'in the list callback of a ResourceTemplate, which answers resources/list, not tools/call, prompts/get or resources/read'
    : 'in a completion callback of a ResourceTemplate, which answers completion/complete, not tools/call, prompts/get or resources/read';
}

/** Why a function that is not a rewritable handler cannot hold a server-initiated request, for the marker. */
export function describeNonHandler(fn: FunctionLike | undefined, site?: Node): NonHandler {
  if (!fn) return (site && classMemberAround(site)) ?? { kind: 'top-level', detail: 'at module level, outside any request handler' };
  const parent = fn.getParent();
  if (parent && Node.isBinaryExpression(parent) && parent.getOperatorToken().getKind() === SyntaxKind.EqualsToken) {
    const left = parent.getLeft().getText();
    if (/\.(oninitialized|onclose|onerror)$/.test(left)) return { kind: 'lifecycle', detail: `in ${left}` };
  }
  const sdkCallback = sdkCallbackOf(fn);
  if (sdkCallback) return { kind: 'other-request', detail: sdkCallback };
  const wrapped = registeredWrapperCallOf(fn);
  if (wrapped) {
    const registered = `${calleeName(wrapped.registration)}(${wrapped.registration.getArguments()[0]?.getText() ?? ''})`;
    const detail = `in a handler wrapped by ${calleeName(wrapped.wrapper)}() before ${registered} registers it`;
    const passed = callbackArgument(fn);
    const refused = passed && passed.call === wrapped.wrapper ? passThroughOf(fn, passed)?.refused : undefined;
    return {
      kind: 'wrapped-handler',
      detail,
      ...(refused ? { fate: `it is not migrated as its handler: ${refused.why}; ${refused.fix}` } : {}),
    };
  }
  if (parent && Node.isCallExpression(parent)) {
    const callee = parent.getExpression();
    const calleeName = Node.isPropertyAccessExpression(callee) ? callee.getName() : callee.getText();
    if (calleeName === 'setNotificationHandler') return { kind: 'notification', detail: 'in a notification handler' };
    if (calleeName === 'setRequestHandler') {
      const schema = parent.getArguments()[0]?.getText() ?? 'a request';
      return { kind: 'other-request', detail: `in the ${schema} handler, which is not tools/call, prompts/get or resources/read` };
    }
  }
  const overridden = overriddenRegistrationOf(fn);
  if (overridden) return overridden;
  const passed = callbackArgument(fn);
  const wrapping = passed && wrappingOf(fn, passed, registrations);
  if (wrapping?.refused) {
    const registration = wrapping.registration.getExpression().getText();
    return {
      kind: 'wrapped',
      detail: `in a callback passed to ${wrapping.wrapper} of ${wrapping.where}, which registers it with ${registration}(...)`,
      fate: `it is not migrated as that registration's handler: ${wrapping.refused.why}; ${wrapping.refused.fix}`,
    };
  }
  if (parent && Node.isCallExpression(parent) && parent.getArguments().includes(fn as never)) {
    const callee = parent.getExpression();
    return {
      kind: 'callback',
      detail: `in a callback passed to ${Node.isPropertyAccessExpression(callee) ? callee.getName() : callee.getText()}()`,
    };
  }
  // `new Promise((resolve, reject) => ...)`, and a function called where it is written (`(async () => ...)()`):
  // no helper, nothing else calls them.
  if (parent && Node.isNewExpression(parent) && (parent.getArguments() as Node[]).includes(fn)) {
    return { kind: 'callback', detail: `in a callback passed to new ${parent.getExpression().getText()}()` };
  }
  let called: Node | undefined = parent;
  while (called && Node.isParenthesizedExpression(called)) called = called.getParent();
  if (called && Node.isCallExpression(called) && unwrap(called.getExpression()) === fn) {
    return { kind: 'callback', detail: 'in a function called where it is written ((async () => { ... })())' };
  }
  const name = Node.isFunctionDeclaration(fn) || Node.isMethodDeclaration(fn) ? fn.getName() : variableNameOf(fn);
  const shared = sharedRegistration(fn);
  if (shared) {
    const callee = shared.getExpression().getText();
    return {
      kind: 'shared-handler',
      detail: `in ${name}(), passed to ${callee}() by name but also ${usesByName(fn)!.exported ? 'exported' : 'used otherwise'}`,
    };
  }
  if ((Node.isFunctionDeclaration(fn) || Node.isFunctionExpression(fn) || Node.isMethodDeclaration(fn)) && fn.isGenerator()) {
    return { kind: 'generator', detail: `in generator ${name ? `${name}()` : 'function'}` };
  }
  return { kind: 'helper', detail: `in ${name ? `helper ${name}()` : 'a helper function'}, not directly in a handler` };
}

/**
 * A callback passed to a registration whose receiver's class (the project's, extending the SDK's server)
 * declares that method again, or the SDK 1.x method the official codemod turned the call from: the class
 * decides what the callback gets and when it runs, so it is not migrated as the SDK's handler.
 */
function overriddenRegistrationOf(fn: FunctionLike): NonHandler | undefined {
  const call = fn.getParent();
  if (!call || !Node.isCallExpression(call) || !call.getArguments().includes(fn as never)) return undefined;
  const callee = call.getExpression();
  if (!Node.isPropertyAccessExpression(callee) || !(callee.getName() in TOOL_METHODS)) return undefined;
  const name = callee.getName();
  const over = overridingClass(callee.getExpression(), name);
  if (!over) return undefined;
  const detail = `in a callback passed to ${name}() on an instance of ${over.cls}, which declares ${over.member}() of its own`;
  if (over.member === name) {
    return {
      kind: 'wrapped',
      detail,
      fate: `that ${name}() is not the SDK's registration and decides what the callback gets, so it is not migrated as a handler; migrate by hand`,
    };
  }
  const fate = `SDK 2.x's McpServer has no ${over.member}(), and the official codemod turns ${over.member}(...) calls into ${name}(...), which does not run ${over.cls}'s ${over.member}(), so the callback is not migrated as a handler; do what that ${over.member}() did around the ${name}() call (or in a pass-through wrapper of the callback), remove it from the class and run again, or migrate by hand`;
  return { kind: 'wrapped', detail, fate };
}

function variableNameOf(fn: Node): string | undefined {
  const parent = fn.getParent();
  return parent && Node.isVariableDeclaration(parent) ? parent.getName() : undefined;
}
