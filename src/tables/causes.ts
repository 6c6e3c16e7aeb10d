/**
 * Why something was left: one row per cause, with a stable id that the SARIF output uses as its rule
 * id (and the editor and the docs can use the same way), a one-line text and the fix.
 *
 * The analysis reports a cause where it finds it, as a lint rule reports a message id: a `FoundCause`, the
 * row's id and the sentence the summary counts sites under (with what varies from site to site, where the
 * row's own text would say less). A site report carries both (`SiteReport.causeId`, `SiteReport.cause`).
 */
import { FRAMEWORKS } from './frameworks.js';

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

const REDESIGN = 'MCP 2026-07-28 has no server-initiated requests outside tools/call, prompts/get and resources/read';

const ROWS = [
  // Outside a handler that can return input_required (src/analysis/nonHandlers.ts, src/find/reach.ts).
  {
    id: 'helper-body',
    level: 'warning',
    text: 'request in a function no tools/call, prompts/get or resources/read handler calls',
    fix: `${REDESIGN}: call the function from one of those handlers (it is then migrated where it is), or take what it asks for as an argument`,
  },
  {
    id: 'shared-handler',
    level: 'warning',
    text: 'handler passed by name that is also called or exported',
    fix: 'give the registration a function of its own that calls the shared one, or migrate by hand',
  },
  {
    id: 'handler-wrapped-by-call',
    level: 'warning',
    text: 'handler wrapped by a function of the project before it is registered, which is not a pass-through it can be migrated through',
    fix: "the message says why (the wrapper changes the arguments, calls the callback again, is not the project's own, or declares a type that cannot carry input_required); make it a pass-through (`return async (...args) => cb(...args)`) and run again, or pass the callback to the registration directly and keep the wrapper's work inside it; or migrate by hand",
  },
  {
    id: 'generator',
    level: 'warning',
    text: 'request inside a generator no handler runs',
    fix: 'await the requests in the handler (a loop there migrates) and keep the generator for the rest',
  },
  {
    id: 'other-request-handler',
    level: 'warning',
    text: 'request in a handler other than tools/call, prompts/get or resources/read',
    fix: `${REDESIGN}: move the request into one of those`,
  },
  {
    id: 'notification-handler',
    level: 'warning',
    text: 'request in a notification handler',
    fix: `${REDESIGN}: ask from inside the tool that needs it, or read it lazily there`,
  },
  {
    id: 'lifecycle-callback',
    level: 'warning',
    text: 'request in oninitialized, onclose or onerror',
    fix: `${REDESIGN}: ask from inside the tool that needs it, or read it lazily there`,
  },
  {
    id: 'wrapped-handler',
    level: 'warning',
    text: "handler registered through something other than the SDK's registration (a wrapper of the project, a class's own method, a method SDK 2.x lacks)",
    fix: 'the message says why; remove the obstacle and run again, or migrate by hand',
  },
  {
    id: 'callback',
    level: 'warning',
    text: 'request in a callback run later (a timer, an event) or passed on where what runs it cannot be followed',
    fix: 'await the request in the handler, or call the function from one by its name',
  },
  {
    id: 'class-member',
    level: 'warning',
    text: 'request in a getter, setter, constructor or static block of a class',
    fix: 'make it a method the handler awaits (it is then migrated where it is), or migrate by hand',
  },
  {
    id: 'module-level',
    level: 'warning',
    text: 'request at module level',
    fix: 'move it into a tools/call, prompts/get or resources/read handler',
  },
  // A function a handler runs, reached from somewhere else too (src/analysis/units/unreached.ts markOtherCaller).
  {
    id: 'helper-called-from-notification',
    level: 'warning',
    text: 'call of a function that asks, in a notification handler',
    fix: 'a notification handler cannot ask the client on MCP 2026-07-28: clear what the answer would refresh and let the next tool call that needs it ask',
  },
  {
    id: 'request-outside-run',
    level: 'warning',
    text: 'call, in a handler of the run, of code in a file outside the run that asks the client',
    fix: "migrate the files together: run mcp-migrate on the folder that holds both (a workspace's root)",
  },
  {
    id: 'helper-called-outside-handler',
    level: 'warning',
    text: 'call of a function that asks, where no request is served (a lifecycle callback, a timer, module level, another kind of handler)',
    fix: `${REDESIGN}: call the function from one of those handlers, or take what it asks for as an argument`,
  },
  // Work before a question that a 2026-07-28 round would do again (src/effects).
  {
    id: 'effect-between-questions',
    level: 'warning',
    text: 'work that asks inside it, then again after it',
    fix: 'do the work in a statement of its own after the question it needs, so that it can be journaled; or migrate by hand',
  },
  {
    id: 'effect-around-yield',
    level: 'warning',
    text: "work with an effect in a generator's yield, which cannot be journaled",
    fix: 'do the work in a statement of its own, or migrate by hand',
  },
  {
    id: 'handle-set-up-with-effect',
    level: 'warning',
    text: 'a handle made again on each round, set up by a call that also does something outside it',
    fix: 'split the call: set the handle up in code of its own (run again on each round) and do the outside work apart (journaled); or make the handle once per call outside the handler',
  },
  {
    id: 'construction-with-effect',
    level: 'warning',
    text: 'an instance made again on each round whose construction also changes something outside it (a counter, a list)',
    fix: 'make that change in a call of its own before making the instance (replay journals it), and hand its result to the constructor; or make the instance once per call outside the handler',
  },
  {
    id: 'effect-outside-an-expression',
    level: 'warning',
    text: 'work that reaches outside the round done by a destructuring (a getter) or a for...of (an iterator outliving the round), which replay cannot journal',
    fix: 'do the work in an expression of its own (read the getter as book.next; take the items with next()), which replay journals; or migrate by hand',
  },
  {
    id: 'journaled-result-not-serialisable',
    level: 'warning',
    text: 'journaled work whose result cannot travel in requestState, read after a question',
    fix: 'return plain data from the work (ids, records), or make the value again after the question',
  },
  {
    id: 'destructured-send-request',
    level: 'error',
    text: 'sendRequest destructured from the handler context',
    fix: "SDK 2.x's context has no sendRequest: name the context parameter (ctx), call ctx.mcpReq.send(...), then run again",
  },
  {
    id: 'task-augmented-request',
    level: 'error',
    text: 'task-augmented request',
    fix: "MCP 2026-07-28 and SDK 2.x have no task-augmented requests: ask without the task, and keep long work on the server's side",
  },
  {
    id: 'client-tasks',
    level: 'error',
    text: "request about the client's tasks (tasks/get, tasks/result)",
    fix: "ask with inputRequired, and keep long work on the server's side",
  },
  {
    id: 'request-method-not-in-2026',
    level: 'warning',
    text: 'request of a method other than elicitation/create, sampling/createMessage and roots/list (ping, a custom method)',
    fix: 'do without it on 2026-07-28 requests (keep it for 2025-era clients behind a check of the protocol version), or migrate by hand',
  },
  {
    id: 'request-on-unknown-receiver',
    level: 'warning',
    text: 'elicitInput(), listRoots() or server.createMessage() on something mcp-migrate cannot tell is an SDK server (an untyped parameter whose callers it cannot follow)',
    fix: 'if it is an SDK server, say so (type it McpServer, or `/** @param {McpServer} server */` in JavaScript) or hand it from a handler by a call the run can follow, then run again; if it is not, delete the marker',
  },
  // Frameworks built on the SDK (src/tables/frameworks.ts), and a project's own base-class request helpers.
  ...FRAMEWORKS.map(f => ({
    id: `${f.id}-request` as const,
    level: 'warning' as const,
    text: `request sent through ${f.name}'s own API`,
    fix: `${f.status}: ${f.instead}`,
  })),
  {
    id: 'framework-helper',
    level: 'warning',
    text: 'base-class method that sends a request for its subclasses',
    fix: `${REDESIGN}: redesign the helper so that the subclass's tool returns inputRequired(...) and reads the answer on the retry (ctx.mcpReq.inputResponses), then migrate each call`,
  },
  {
    id: 'framework-helper-call',
    level: 'warning',
    text: 'call of a base-class method that sends a request',
    fix: 'migrate it with the helper: once the helper is redesigned, return its inputRequired(...) from the tool',
  },
  // What the connection used to carry.
  {
    id: 'capabilities-from-connection',
    level: 'warning',
    text: 'client capabilities read from the connection where no request is served',
    fix: "read the request's own capabilities in the handler (clientCapabilities(server), or ctx.mcpReq.envelope), or pass them to the code that needs them",
  },
  {
    id: 'oninitialized-never-fires',
    level: 'warning',
    text: 'oninitialized (or a notifications/initialized handler), which never fires for a 2026-07-28 client',
    fix: "do that work when the server is built, or in the handler that needs it, from the request's own envelope (ctx.mcpReq.envelope)",
  },
  {
    id: 'client-info-from-connection',
    level: 'warning',
    text: 'getClientVersion(), undefined for a 2026-07-28 client under serveStdio',
    fix: "read the request's own, ctx.mcpReq.envelope?.[CLIENT_INFO_META_KEY], falling back to getClientVersion() for 2025-era clients",
  },
  {
    id: 'protocol-version-compared',
    level: 'warning',
    text: "negotiated protocol version compared with known revisions, which '2026-07-28' matches none of",
    fix: 'decide what the code does for 2026-07-28',
  },
  {
    id: 'log-on-connection',
    level: 'warning',
    text: "sendLoggingMessage() where a request is served, from code that has not the handler's context",
    fix: "hand the handler's context down and call ctx.mcpReq.log(level, data, logger), which sends the request's own log message at the level it asks for (SEP-2577 deprecates MCP logging: stderr or OpenTelemetry outlast it)",
  },
  {
    id: 'asks-past-round-limit',
    level: 'warning',
    text: "a loop that asks once per item over more items than a 2026-07-28 client answers rounds of a call (10 in the SDK's client)",
    fix: 'ask for the items together: one question with a field per item',
  },
  {
    id: 'journaled-result-changed',
    level: 'warning',
    text: 'a journaled result the handler changes after a question, which a later round reads back as a copy',
    fix: 're-read the object after the question (by its id, from its owner) and change that',
  },
  {
    id: 'list-changed-on-instance',
    level: 'warning',
    text: 'a list change (send…ListChanged(), or a registration while a request is served) told from a server instance behind createMcpHandler',
    fix: 'keep what createMcpHandler(...) returns and call its notify.toolsChanged() (promptsChanged, resourcesChanged) where the list changes',
  },
  {
    id: 'session-id-as-key',
    level: 'warning',
    text: 'a cache or a count keyed on the session id, which a 2026-07-28 request does not have',
    fix: 'key it on something each request carries (the user, an argument), or keep nothing across calls',
  },
  {
    id: 'registered-in-oninitialized',
    level: 'error',
    text: 'tool, prompt or resource registered in oninitialized',
    fix: 'register it when the server is built: oninitialized never fires on MCP 2026-07-28',
  },
  // Serving entries.
  {
    id: 'sse-entry',
    level: 'warning',
    text: 'HTTP+SSE entry',
    fix: 'move the endpoint to Streamable HTTP served by createMcpHandler(factory)',
  },
  {
    id: 'http-entry-not-moved',
    level: 'warning',
    text: 'Streamable HTTP entry not moved to createMcpHandler',
    fix: 'serve a server factory with toNodeHandler(createMcpHandler(factory)), or route 2026-07-28 requests there with isLegacyRequest',
  },
  {
    id: 'stdio-used-after-connect',
    level: 'warning',
    text: 'stdio server used right after connect()',
    fix: "serveStdio connects on the client's first message: move that use of the server into a handler, or drop it",
  },
  {
    id: 'stdio-server-made-at-connect',
    level: 'warning',
    text: 'a stdio server made in the statement that connects it, outside a block',
    fix: "serveStdio calls its factory at the client's first message, maybe more than once: declare the server first (`const server = createServer();`), then run again",
  },
  {
    id: 'stdio-connect-promise-used',
    level: 'warning',
    text: 'the promise of a stdio connect() used',
    fix: 'serveStdio returns no promise: move what waits for it to after the call',
  },
  {
    id: 'unknown-transport',
    level: 'warning',
    text: 'server connected by hand through a transport mcp-migrate cannot identify',
    fix: 'serve it with serveStdio(() => server) or createMcpHandler(factory), or route 2026-07-28 requests to those',
  },
  {
    id: 'serving-entry',
    level: 'warning',
    text: 'serving entry not moved to the 2.x entries',
    fix: 'serve the server with serveStdio(() => server) or createMcpHandler(factory)',
  },
  // Request shapes left as they are.
  {
    id: 'request-method-aliased',
    level: 'warning',
    text: "request made through a variable that holds the server's request method",
    fix: "call the server's method (server.server.elicitInput(...)) where the answer is awaited",
  },
  {
    id: 'url-elicitation-error',
    level: 'warning',
    text: 'throw new UrlElicitationRequiredError(...)',
    fix: "ask with elicitInput({ mode: 'url', message, url, elicitationId }) where the handler can wait for the answer",
  },
  // The run itself.
  {
    id: 'rewrite-failed',
    level: 'error',
    text: 'the rewrite of the file failed',
    fix: 'the file is left as it was; report the message as a bug, or migrate by hand',
  },
  {
    id: 'not-selected',
    level: 'warning',
    text: 'handler not selected',
    fix: 'convert that handler, or the whole file',
  },
] as const satisfies readonly Cause[];

/** Findings that are no site: the official codemod's leftovers and files the run could not migrate. */
export const CODEMOD_LEFTOVER: Cause = {
  id: 'codemod-manual-migration',
  level: 'error',
  text: 'the official v1-to-v2 codemod left code that cannot run on SDK 2.x (an @mcp-codemod-error marker)',
  fix: 'migrate that code by hand as the marker says (e.g. a server.tool(...) it could not convert: server.tool is not a function in 2.x), then remove the marker',
};
/** A leftover whose code throws as the migrated server starts (src/upgrade/markers.ts failsAtStart). */
export const CODEMOD_START_FAILURE: Cause = {
  id: 'codemod-fails-at-start',
  level: 'error',
  text: 'code left on SDK 1.x that throws as the migrated server starts (a handler keyed by a schema, a name whose import SDK 2.x dropped): the run exits 4',
  fix: "migrate that code by hand as the marker says (key the handler by its method string, 'prompts/list'; replace what the dropped import gave), then remove the marker",
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
  text: 'left without the id of a cause (a site report written by hand, or a bug of mcp-migrate)',
  fix: 'the message says what to do; if mcp-migrate wrote the report, please report it',
};

/** Every cause, the order of the table: what a SARIF log lists as its rules. */
export const CAUSES: readonly Cause[] = [...ROWS, CODEMOD_LEFTOVER, CODEMOD_START_FAILURE, SDK_FILE_SKIPPED, FILE_FAILED, UNCLASSIFIED];

/** The id of a row of the table: what a cause is reported with. */
export type CauseId = (typeof ROWS)[number]['id'];

/** A cause as the analysis finds it: its row, and the sentence the summary counts the site under. */
export interface FoundCause {
  id: CauseId;
  text: string;
}

/** The cause of a marked or skipped site: the row it was reported with. */
export function causeOf(site: { causeId?: CauseId }): Cause {
  return CAUSES.find(c => c.id === site.causeId) ?? UNCLASSIFIED;
}

/** Causes found in more than one place, or whose sentence names no detail of the site. */
export const ONINITIALIZED_CAUSE: FoundCause = {
  id: 'oninitialized-never-fires',
  text: 'oninitialized never fires for a 2026-07-28 client (it sends no initialize)',
};
export const CLIENT_VERSION_CAUSE: FoundCause = {
  id: 'client-info-from-connection',
  text: 'client info read from the connection (undefined for a 2026-07-28 client under serveStdio)',
};
export const PROTOCOL_VERSION_CAUSE: FoundCause = {
  id: 'protocol-version-compared',
  text: "negotiated protocol version compared with the revisions the code knows ('2026-07-28' matches none)",
};
export const SESSION_KEY_CAUSE: FoundCause = {
  id: 'session-id-as-key',
  text: 'the session id used as a key (undefined for every 2026-07-28 client, which has no session)',
};
export const LOGGING_CAUSE: FoundCause = {
  id: 'log-on-connection',
  text: 'a log message sent on the connection while a request is served (sent unasked to a 2026-07-28 client over stdio, dropped over HTTP)',
};
export const CHANGED_COPY_CAUSE: FoundCause = {
  id: 'journaled-result-changed',
  text: 'a journaled result changed after a question (a copy on a later round)',
};
export const ROUND_LIMIT_CAUSE: FoundCause = {
  id: 'asks-past-round-limit',
  text: "a loop asking more often than a 2026-07-28 client's round limit",
};
export const LIST_CHANGED_CAUSE: FoundCause = {
  id: 'list-changed-on-instance',
  text: 'a list change told from a server instance, which no subscriptions/listen stream of createMcpHandler receives',
};
export const UNKNOWN_TRANSPORT_CAUSE: FoundCause = {
  id: 'unknown-transport',
  text: 'server connected by hand through a transport mcp-migrate cannot identify (2025-era clients only)',
};
