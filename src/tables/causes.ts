/**
 * Why something was left: one row per cause, with a stable id that the SARIF output uses as its rule
 * id (and the editor and the docs can use the same way), a one-line text and the fix.
 *
 * The analysis writes causes as sentences (`SiteReport.cause`, or `reason` where there is no cause);
 * `causeOf` classifies a site by them, so the analysis keeps its wording and this table stays the one
 * place that names them. A cause no row recognises is `unclassified`: test/report-counts.test.ts
 * fails on one, so a new cause gets its row here.
 */
import type { SiteReport } from '../report.js';
import { FRAMEWORK_HELPER_CALL_CAUSE, FRAMEWORK_HELPER_CAUSE, FRAMEWORKS } from './frameworks.js';

export type CauseLevel = 'error' | 'warning';

export interface Cause {
  /** Stable: never renamed once published (SARIF rule ids, editor codes and docs anchors use it). */
  id: string;
  /** What was found, in one line. */
  text: string;
  /** What to do about it. */
  fix: string;
  /**
   * `error`: the migrated server fails where this is (at startup, or on the call); `warning`: it
   * keeps working for 2025-era clients and needs a redesign for 2026-07-28 ones.
   */
  level: CauseLevel;
}

/** The site kinds, causes and reasons a row recognises: the first row whose test passes wins. */
interface Row extends Cause {
  kind?: SiteReport['kind'];
  match?: RegExp;
}

/** How src/analysis/callbacks.ts says why it left a request in an awaited callback: the rows below match these. */
export const CALLBACK_CAUSES = {
  lock: 'request inside a callback run under a lock',
  wrapper: "request inside a callback passed to a wrapper that does not pass the callback's value through",
  notReturned: 'request inside an awaited callback whose wrapper call the handler does not return',
  workBefore: 'request inside an awaited callback after work the handler would do again each round',
  parameter: 'request inside an awaited callback whose parameter is changed before it and read after it',
} as const;

const REDESIGN = 'MCP 2026-07-28 has no server-initiated requests outside tools/call, prompts/get and resources/read';

const ROWS: readonly Row[] = [
  // Outside a handler that can return input_required.
  { id: 'helper-body', level: 'warning', match: /^in a helper body|^in (helper \S+|a helper function), not directly in a handler/, text: 'request in a helper body that is not inlined everywhere', fix: 'calls from handlers are inlined and migrated; migrate the other callers by hand, or remove the helper when nothing calls it' },
  { id: 'shared-handler', level: 'warning', match: /^in a handler passed by name that is also called or exported/, text: 'handler passed by name that is also called or exported', fix: 'give the registration a function of its own (a helper it calls is inlined there), or migrate by hand' },
  { id: 'handler-wrapped-by-call', level: 'warning', match: /^in a handler wrapped by a function of the project/, text: 'handler wrapped by a function of the project before it is registered, which is not a pass-through it can be migrated through', fix: "the message says why (the wrapper changes the arguments, calls the callback again, is not the project's own, or declares a type that cannot carry input_required); make it a pass-through (`return async (...args) => cb(...args)`) and run again, or pass the callback to the registration directly and keep the wrapper's work inside it; or migrate by hand" },
  { id: 'generator', level: 'warning', match: /^in a generator/, text: 'request inside a generator', fix: 'await the requests in the handler (a loop there migrates) and keep the generator for the rest' },
  { id: 'other-request-handler', level: 'warning', match: /^in a request handler other than/, text: 'request in a handler other than tools/call, prompts/get or resources/read', fix: `${REDESIGN}: move the request into one of those` },
  { id: 'notification-handler', level: 'warning', match: /^in a notification handler/, text: 'request in a notification handler', fix: `${REDESIGN}: ask from inside the tool that needs it, or read it lazily there` },
  { id: 'lifecycle-callback', level: 'warning', match: /^in a lifecycle callback/, text: 'request in oninitialized, onclose or onerror', fix: `${REDESIGN}: ask from inside the tool that needs it, or read it lazily there` },
  { id: 'wrapped-handler', level: 'warning', match: /^in a callback registered through a wrapper of the project/, text: 'handler registered through a function of the project that cannot be migrated as its handler', fix: 'the message says why (the wrapper uses it otherwise, registers it under a name made inside it, or declares it with a type that cannot return input_required); remove the obstacle and run again, or migrate by hand' },
  { id: 'callback', level: 'warning', match: /^in a callback the handler passes on/, text: 'request inside a callback the handler passes on', fix: 'await the request directly in the handler body' },
  // Awaited callbacks (src/analysis/callbacks.ts) left as they are.
  { id: 'callback-under-lock', level: 'warning', match: new RegExp(`^${CALLBACK_CAUSES.lock}`), text: 'request inside a callback run under a lock (async-mutex runExclusive)', fix: 'ask before taking the lock (move the request out of the callback), then make the change under the lock with the answer' },
  { id: 'callback-wrapper-not-pass-through', level: 'warning', match: new RegExp(`^${CALLBACK_CAUSES.wrapper}`), text: "request inside a callback passed to a wrapper that does not pass the callback's value through", fix: 'move the request out of the callback: await it in the handler before the wrapper call and hand the answer in' },
  { id: 'callback-result-not-returned', level: 'warning', match: new RegExp(`^${CALLBACK_CAUSES.notReturned}`), text: 'request inside an awaited callback whose wrapper call the handler does not return', fix: 'return the wrapper call from the handler (`return wrapper(...)`), or move the request out of the callback' },
  { id: 'callback-after-repeated-work', level: 'warning', match: new RegExp(`^${CALLBACK_CAUSES.workBefore}`), text: 'request inside an awaited callback after work the handler would do again each round', fix: 'move that work into the callback, or the request out of it' },
  { id: 'callback-parameter-changed', level: 'warning', match: new RegExp(`^${CALLBACK_CAUSES.parameter}`), text: 'request inside an awaited callback whose parameter is changed before it and read after it', fix: 'ask before changing the parameter, or keep what it holds in a local' },
  { id: 'class-member', level: 'warning', match: /^in a getter, setter, constructor or static block of a class/, text: 'request in a getter, setter, constructor or static block of a class', fix: 'make it a function the handler awaits (one taking the server is inlined and migrated there), or migrate by hand' },
  { id: 'module-level', level: 'warning', match: /^at module level/, text: 'request at module level', fix: 'move it into a tools/call, prompts/get or resources/read handler' },
  { id: 'destructured-send-request', level: 'error', match: /sendRequest destructured from the handler's context/, text: 'sendRequest destructured from the handler context', fix: 'SDK 2.x\'s context has no sendRequest: name the context parameter (ctx), call ctx.mcpReq.send(...), then run again' },
  { id: 'task-augmented-request', level: 'error', match: /task-augmented request/, text: 'task-augmented request', fix: 'MCP 2026-07-28 and SDK 2.x have no task-augmented requests: ask without the task, and keep long work on the server\'s side' },
  { id: 'client-tasks', level: 'error', match: /asks the client about its tasks/, text: 'request about the client\'s tasks (tasks/get, tasks/result)', fix: 'ask with inputRequired, and keep long work on the server\'s side' },
  // Frameworks built on the SDK (src/tables/frameworks.ts), and a project's own base-class request helpers.
  ...FRAMEWORKS.map((f): Row => ({ id: `${f.id}-request`, level: 'warning', match: new RegExp(`^${f.name} request:`), text: `request sent through ${f.name}'s own API`, fix: `${f.status}: ${f.instead}` })),
  { id: 'framework-helper', level: 'warning', match: new RegExp(`^${FRAMEWORK_HELPER_CAUSE}`), text: 'base-class method that sends a request for its subclasses', fix: `${REDESIGN}: redesign the helper so that the subclass's tool returns inputRequired(...) and reads the answer on the retry (ctx.mcpReq.inputResponses), then migrate each call` },
  { id: 'framework-helper-call', level: 'warning', match: new RegExp(`^${FRAMEWORK_HELPER_CALL_CAUSE}`), text: 'call of a base-class method that sends a request', fix: 'migrate it with the helper: once the helper is redesigned, return its inputRequired(...) from the tool' },
  // Functions and methods a handler hands its call to (src/analysis/delegates.ts), not migrated as its delegates.
  { id: 'delegate-called-elsewhere', level: 'warning', match: /^delegate not migrated: it is also called elsewhere/, text: 'function or method a handler hands its call to, also called elsewhere', fix: 'give the other caller a function of its own (the delegate then takes the handler\'s context and returns input_required), or migrate by hand' },
  { id: 'delegate-sibling-not-migrated', level: 'warning', match: /^delegate not migrated: another delegate of its handler/, text: 'override a handler may run, left because another override of it cannot be migrated', fix: 'make that other override migratable (the message says why it is not): every body the handler may run is migrated, or none' },
  { id: 'delegate-not-migrated', level: 'warning', match: /^delegate not migrated/, text: 'function or method a handler hands its call to, not migrated as its delegate', fix: 'the message says why; remove the obstacle, or migrate by hand' },
  // Calls of a helper that makes a request, from where it cannot be migrated (src/analysis/callers.ts).
  { id: 'helper-called-from-notification', level: 'warning', match: /^a helper that makes a request, called from a notification handler/, text: 'call of a helper that makes a request, in a notification handler', fix: 'a notification handler cannot ask the client on MCP 2026-07-28: clear what the answer would refresh and let the next tool call that needs it ask' },
  { id: 'helper-called-from-wrapped-handler', level: 'warning', match: /^a helper that makes a request, called from a handler registered through a wrapper/, text: 'call of a helper that makes a request, in a handler registered through a function of the project that cannot be migrated as its handler', fix: 'the message says why; remove the obstacle and run again (the call is then inlined), or migrate by hand' },
  { id: 'helper-called-through-stored-function', level: 'warning', match: /^a helper that makes a request, called through a stored function/, text: 'call of a helper that makes a request, through a stored function', fix: 'call the helper by its name in the handler (it is inlined there), or migrate by hand' },
  { id: 'helper-called-outside-handler', level: 'warning', match: /^a helper that makes a request, (?:called|passed on)/, text: 'call of a helper that makes a request, where no input_required can be returned', fix: `${REDESIGN}: call the helper from one of those handlers (it is inlined there), or take what it asks for as an argument` },
  // Helpers not inlined.
  { id: 'cache-filler-not-split', level: 'warning', match: /^cache filler not split/, text: 'helper that fills a cache, not split for the handler', fix: 'the message says why; have the tool read the cache and ask only when it is empty (return inputRequired), filling the cache from the answer on the retry' },
  { id: 'helper-cycle', level: 'warning', match: /cycle of helpers/, text: 'request reached through a cycle of helpers', fix: 'break the cycle, or return inputRequired from the handler by hand' },
  { id: 'helper-too-deep', level: 'warning', match: /levels of helpers/, text: 'request reached through more helper levels than are inlined', fix: 'call the inner helper from the handler, or migrate by hand' },
  { id: 'helper-table-dispatch', level: 'warning', match: /^helper not inlined: a call through a table of entries/, text: 'call through a table of entries (`t.invoke(...)`), any of which the handler may run', fix: 'migrate the entries that ask by hand: each returns inputRequired, and the dispatching handler returns that result as it is' },
  { id: 'helper-assigns-module-variable', level: 'warning', match: /^helper not inlined: it assigns a module-level variable/, text: 'helper that assigns a module-level variable of its module where a setter call cannot stand in', fix: "the message says which: assign it in a statement of its own in the helper's body (`x = value;`, `x += n;`), not by destructuring nor in a function the helper creates, and read a value it assigned from a local (its module then gets a setter the inlined code calls); rename what has the setter's name; a CommonJS module is migrated by hand" },
  { id: 'helper-not-inlined', level: 'warning', match: /^helper not inlined|is not inlined:/, text: 'helper not inlined into the handler', fix: 'the message says why; migrate the helper call by hand or remove the obstacle' },
  // What the connection used to carry.
  { id: 'capabilities-from-connection', level: 'warning', kind: 'capabilities', text: 'client capabilities read from the connection', fix: 'read the request\'s own capabilities in the handler (ctx.mcpReq.envelope), or pass them to the code that needs them' },
  { id: 'registered-in-oninitialized', level: 'error', kind: 'registration', text: 'tool, prompt or resource registered in oninitialized', fix: 'register it when the server is built: oninitialized never fires on MCP 2026-07-28' },
  // Serving entries.
  { id: 'sse-entry', level: 'warning', match: /SSEServerTransport/, text: 'HTTP+SSE entry', fix: 'move the endpoint to Streamable HTTP served by createMcpHandler(factory)' },
  { id: 'http-entry-not-moved', level: 'warning', match: /not moved to createMcpHandler/, text: 'Streamable HTTP entry not moved to createMcpHandler', fix: 'serve a server factory with toNodeHandler(createMcpHandler(factory)), or route 2026-07-28 requests there with isLegacyRequest' },
  { id: 'stdio-used-after-connect', level: 'warning', match: /stdio server used right after connect\(\)/, text: 'stdio server used right after connect()', fix: 'serveStdio connects on the client\'s first message: move that use of the server into a handler, or drop it' },
  { id: 'stdio-server-made-at-connect', level: 'warning', match: /stdio server made where it is connected/, text: 'a stdio server made in the statement that connects it, outside a block', fix: 'serveStdio calls its factory at the client\'s first message, maybe more than once: declare the server first (`const server = createServer();`), then run again' },
  { id: 'stdio-connect-promise-used', level: 'warning', match: /stdio connect\(\) promise used/, text: 'the promise of a stdio connect() used', fix: 'serveStdio returns no promise: move what waits for it to after the call' },
  { id: 'serving-entry', level: 'warning', kind: 'entry', text: 'serving entry not moved to the 2.x entries', fix: 'serve the server with serveStdio(() => server) or createMcpHandler(factory)' },
  // Shapes the phases do not split.
  { id: 'two-requests-one-statement', level: 'warning', match: /two server-initiated requests are awaited in one statement/, text: 'two requests awaited in one statement', fix: 'split it into one await per statement' },
  { id: 'request-passed-as-value', level: 'warning', match: /is passed on as a value/, text: 'request channel passed on as a value', fix: 'call it in the handler, or rewrite the helper it goes to so it returns inputRequired' },
  { id: 'request-method-aliased', level: 'warning', match: /which holds the server's \w+\(\)/, text: "request made through a variable that holds the server's request method", fix: "call the server's method (server.server.elicitInput(...)) where the answer is awaited" },
  { id: 'project-result-schema', level: 'warning', match: /the answer is parsed with .*, not the SDK's \w+ imported by name/, text: "request whose result is parsed with a schema other than the SDK's own for it (ElicitResultSchema.extend(...))", fix: "pass the SDK's result schema (ElicitResultSchema, CreateMessageResultSchema, ListRootsResultSchema) and check the answer after the request, then run again" },
  { id: 'request-method-element-access', level: 'warning', match: /made through an element access/, text: "request made through an element access (srv['listRoots']())", fix: 'write it as a method call (srv.listRoots())' },
  { id: 'request-method-handed-on', level: 'warning', match: /is handed on as a value/, text: "the server's request method handed on as a value", fix: 'call it where the answer is awaited, or rewrite what receives it to return inputRequired' },
  { id: 'url-elicitation-error', level: 'warning', match: /UrlElicitationRequiredError/, text: 'throw new UrlElicitationRequiredError(...)', fix: 'return inputRequired({ inputRequests: { k: inputRequired.elicitUrl({ message, url }) } }) instead' },
  { id: 'request-in-array', level: 'warning', match: /put in an array that is not awaited/, text: 'request put in an array not awaited with Promise.all', fix: 'await the requests with Promise.all where the array is made' },
  { id: 'request-not-awaited', level: 'warning', match: /not awaited where it is made/, text: 'request promise stored or passed on', fix: 'await the request where it is made' },
  { id: 'await-outside-handler-body', level: 'warning', match: /not inside the handler body/, text: 'await outside the handler body', fix: 'await the request in the handler body' },
  { id: 'conditional-await', level: 'warning', match: /evaluated conditionally inside an expression/, text: 'await evaluated conditionally inside an expression', fix: 'move it into a statement of its own under an if' },
  { id: 'await-in-declaration-list', level: 'warning', match: /in a declaration list/, text: 'await in a declaration list', fix: 'declare one variable per statement' },
  { id: 'request-arguments-change-local', level: 'warning', match: /the request's arguments change the handler's local/, text: 'request whose arguments change a local of the handler that cannot travel in requestState (`message: `Item ${cart.count++}`` where `cart` is a class instance)', fix: 'keep what the arguments change in a plain local (a number, a string, an object literal), which the round carries as the arguments left it' },
  { id: 'promise-all-other-element', level: 'warning', match: /the Promise\.all also awaits/, text: 'Promise.all awaiting something beside its requests that the round cannot await where it suspends (listed before a request, a spread, a request of its own, a value that cannot travel as JSON)', fix: 'await it in a statement of its own, before or after the requests, or list the requests first' },
  { id: 'effect-before-await', level: 'warning', match: /evaluates something with an effect before the await/, text: 'statement with an effect before its await', fix: 'split it so the await comes first' },
  { id: 'await-in-loop-header', level: 'warning', match: /in a loop header/, text: 'await in a loop header', fix: 'move it into the loop body' },
  { id: 'loop-assigns-outer-variable', level: 'warning', match: /loop assigns an outer variable/, text: 'loop variable declared outside the loop', fix: 'declare the loop variable in the loop' },
  { id: 'await-in-finally', level: 'warning', match: /inside a finally block/, text: 'await inside a finally block', fix: 'move the request after the try statement, or migrate by hand' },
  { id: 'async-iterable-loop', level: 'warning', match: /for await\.\.\.of over .*not an array/, text: 'for await...of over an async iterable', fix: 'collect the items into an array before the loop, or migrate by hand' },
  { id: 'loop-items-not-serialisable', level: 'warning', match: /loop iterates values that cannot travel in requestState/, text: 'loop over values that cannot travel in requestState', fix: 'iterate plain data (ids, records) and look the rest up in the loop body' },
  { id: 'unsupported-construct', level: 'warning', match: /which this version does not split into phases/, text: 'await inside a construct that is not split into phases', fix: 'lift the await out of it, or migrate by hand' },
  { id: 'local-not-serialisable', level: 'warning', match: /is live across the await and cannot travel in requestState/, text: 'local that cannot travel in requestState live across the await', fix: 'recompute it after the await, or keep it in a server-side store' },
  { id: 'expression-bodied-handler', level: 'warning', match: /expression-bodied arrow function/, text: 'handler with an expression body', fix: 'give the handler a block body' },
  { id: 'handler-not-async', level: 'warning', match: /handler is not an async function/, text: 'handler that is not async', fix: 'make the handler an async function' },
  { id: 'request-without-params', level: 'warning', match: /has no params to forward/, text: 'request without params', fix: 'pass the request\'s params where it is made' },
  { id: 'url-elicitation-params', level: 'warning', match: /URL-mode elicitation params/, text: 'URL-mode elicitation params not written as an object literal', fix: 'write the params as an object literal' },
  { id: 'destructured-parameter', level: 'warning', match: /parameter is destructured/, text: 'handler parameter destructured', fix: 'name the parameter (e.g. ctx) so the rewrite can use it' },
  // The run itself.
  { id: 'rewrite-failed', level: 'error', match: /rewrite of (?:its|this) file failed/, text: 'the rewrite of the file failed', fix: 'the file is left as it was; report the message as a bug, or migrate by hand' },
  { id: 'not-selected', level: 'warning', match: /^not selected/, text: 'handler not selected', fix: 'convert that handler, or the whole file' },
];

/** Findings that are no site: the official codemod's leftovers and files the run could not migrate. */
export const CODEMOD_LEFTOVER: Cause = {
  id: 'codemod-manual-migration',
  level: 'error',
  text: 'the official v1-to-v2 codemod left code that cannot run on SDK 2.x (an @mcp-codemod-error marker)',
  fix: 'migrate that code by hand as the marker says (e.g. a server.tool(...) it could not convert: server.tool is not a function in 2.x), then remove the marker',
};
export const SDK_FILE_SKIPPED: Cause = {
  id: 'sdk-file-skipped',
  level: 'error',
  text: 'a file that imports the SDK was skipped (minified, too large, binary, not UTF-8 or unreadable) and stays on SDK 1.x',
  fix: 'migrate its source (not the build output) instead, or exclude it with --exclude when it is generated',
};
export const FILE_FAILED: Cause = {
  id: 'file-failed',
  level: 'error',
  text: 'a file could not be migrated or written; it was left as it was',
  fix: 'the message says why (a syntax error, a write error); fix that and run again',
};
export const UNCLASSIFIED: Cause = {
  id: 'unclassified',
  level: 'warning',
  text: 'left for a reason the causes table does not name yet',
  fix: 'the message says what to do',
};

/** Every cause, the order of the table: what a SARIF log lists as its rules. */
export const CAUSES: readonly Cause[] = [...ROWS.map(({ kind: _k, match: _m, ...cause }) => cause), CODEMOD_LEFTOVER, SDK_FILE_SKIPPED, FILE_FAILED, UNCLASSIFIED];

/** The cause of a marked or skipped site. */
export function causeOf(site: Pick<SiteReport, 'kind' | 'cause' | 'reason'>): Cause {
  const text = site.cause ?? site.reason;
  const row = ROWS.find(r => (r.match ? r.match.test(text) : false)) ?? ROWS.find(r => r.kind !== undefined && r.kind === site.kind);
  return row ? CAUSES.find(c => c.id === row.id)! : UNCLASSIFIED;
}
