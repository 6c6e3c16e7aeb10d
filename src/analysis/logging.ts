/**
 * Log messages sent while a request is served. `server.sendLoggingMessage({ level, data })` sends
 * `notifications/message` on the connection, filtered by the level a 2025-era client set with
 * logging/setLevel. A 2026-07-28 request names its own level (`logLevel` in its `_meta` envelope), and a
 * client that names none asks for no log messages: over stdio the connection's message reaches it anyway
 * (the official conformance suite fails such a server: sep-2575-server-no-log-without-loglevel), and over
 * HTTP it goes nowhere. The handler's context sends the request's own, on both eras:
 * `ctx.mcpReq.log(level, data, logger)` (measured in test/logging.test.ts).
 *
 * In a tools/call, prompts/get or resources/read handler's own body the call becomes that; the handler's
 * context parameter is added when it has none. Reached from such a handler through a function that has no
 * context, it is marked: the context must be handed down. Elsewhere (a timer, start-up, a notification
 * handler) no request is served and nothing names a level; it is left as it is, with a note (what a
 * 2026-07-28 client makes of such a message was not measured, so the note claims nothing of it).
 */
// (the compiler ts-morph bundles: `typescript` is not a dependency of the installed package)
import { Node, SyntaxKind, ts, type CallExpression, type Expression, type SourceFile } from 'ts-morph';
import { rangeOf, type LogPlan } from '../plan.js';
import { LOGGING_CAUSE, type FoundCause } from '../tables/causes.js';
import { serverMethodCalls, unwrap } from './mcpSymbols.js';
import { enclosingFunction, type FunctionLike } from './functions.js';
import { handlerRegistrationOf, registrationOf } from './sites.js';
import { descendantsOfKind } from './descendants.js';

/** What becomes of one log call. */
export type LoggingFinding =
  | { call: CallExpression; plan: LogPlan; handler: string }
  | { call: CallExpression; marked: { reason: string; cause: FoundCause; handler: string } }
  | { call: CallExpression; note: string };

/** The members of a log message's params that `ctx.mcpReq.log(level, data, logger)` takes. */
const LOG_MEMBERS = ['level', 'data', 'logger'];

/** `sendLoggingMessage(...)` calls on an SDK server in a file. */
export function loggingCalls(sf: SourceFile): CallExpression[] {
  return serverMethodCalls(sf, 'sendLoggingMessage');
}

/**
 * What to do with a log call. `handlerOf(fn)`: the label of a tools/call, prompts/get or resources/read
 * handler that may run `fn`, undefined when none does.
 */
export function loggingFinding(call: CallExpression, handlerOf: (fn: FunctionLike) => string | undefined): LoggingFinding {
  const fn = enclosingFunction(call);
  const registration = fn ? registrationOf(fn) : undefined;
  const callee = unwrap(call.getExpression()).getText();
  if (fn && registration && !registration.ctxMember) {
    // Only a callback written in the registration can be given the context: a delegate's or a wrapper's caller would
    // not pass it, and a function declared apart has no contextual type to give the new parameter (noImplicitAny).
    const direct = registration.wrapper === undefined && handlerRegistrationOf(fn) !== undefined && Node.isCallExpression(fn.getParent());
    const context = contextOf(fn, registration.ctxIndex, direct);
    const params = call.getArguments()[0];
    const members = params && logArguments(params);
    if (context && members) {
      const plan: LogPlan = {
        call: rangeOf(call),
        context: context.name,
        ...(context.added ? { addContextTo: rangeOf(fn) } : {}),
        ...(members === true ? {} : { members }),
      };
      return { call, plan, handler: registration.label };
    }
    const why = !context ? 'its context parameter cannot be named here' : 'its params are not written out as { level, data, logger }';
    return {
      call,
      marked: markedIn(
        callee,
        registration.label,
        `in this handler (${why}) call ctx.mcpReq.log(level, data, logger) with the handler's context`,
      ),
    };
  }
  const handler = fn ? handlerOf(fn) : undefined;
  if (handler)
    return {
      call,
      marked: markedIn(callee, handler, "hand the handler's context (ctx) down to here and call ctx.mcpReq.log(level, data, logger)"),
    };
  return {
    call,
    note: `${callee}(...) runs where no request is served, so it cannot go with one, while a 2026-07-28 client names the log level it wants with each request: log to stderr instead (SEP-2577 deprecates MCP logging), or send it from a handler with ctx.mcpReq.log(...)`,
  };
}

function markedIn(callee: string, handler: string, fix: string): { reason: string; cause: FoundCause; handler: string } {
  const reason = `${callee}() sends the log message on the connection, not with the request: a 2026-07-28 client that asks for none (no logLevel in its request) gets it anyway over stdio, and over HTTP it is dropped; ${fix}`;
  return { reason, cause: LOGGING_CAUSE, handler };
}

/**
 * The handler's context parameter: its name, or `ctx` to be added as its last parameter when it has none
 * there yet and `ctx` names nothing it can see. Undefined for a destructured one, or one that cannot be added.
 */
function contextOf(fn: FunctionLike, index: number, mayAdd: boolean): { name: string; added: boolean } | undefined {
  const params = fn.getParameters();
  const param = params[index];
  if (param) {
    const name = param.getNameNode();
    return Node.isIdentifier(name) ? { name: name.getText(), added: false } : undefined;
  }
  if (!mayAdd || params.length !== index || namesInScope(fn).has('ctx')) return undefined;
  return { name: 'ctx', added: true };
}

function namesInScope(fn: FunctionLike): Set<string> {
  const body = fn.getBody();
  if (!body) return new Set();
  const checker = fn.getProject().getTypeChecker().compilerObject;
  const names = new Set(checker.getSymbolsInScope(body.compilerNode, ts.SymbolFlags.Value).map(s => s.getName()));
  for (const id of descendantsOfKind(body, SyntaxKind.Identifier)) names.add(id.getText());
  return names;
}

/**
 * Whether the params can be read as `level`, `data` and `logger`: true for an object literal of those members
 * only; for a name, the members to read from it (`logger` where its type declares one).
 */
function logArguments(params: Expression | Node): boolean | string[] {
  const value = unwrap(params);
  if (Node.isIdentifier(value)) return value.getType().getProperty('logger') ? LOG_MEMBERS : LOG_MEMBERS.slice(0, 2);
  if (!Node.isObjectLiteralExpression(value)) return false;
  const names = value
    .getProperties()
    .map(p => (Node.isPropertyAssignment(p) || Node.isShorthandPropertyAssignment(p) ? p.getName() : undefined));
  return names.every(n => n !== undefined && LOG_MEMBERS.includes(n)) && names.includes('level') && names.includes('data');
}
