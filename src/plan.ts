/**
 * The plan: what the analysis decided, as plain data (offsets into the file's text), so the
 * rewrite needs no type information and a plan can be printed, stored or tested on its own.
 *
 * A migrated handler keeps its code: the plan says which requests ask through the requestState module,
 * which registrations make their handlers resumable, which work is journaled, and how the server is
 * wired and served.
 */

export interface Range {
  start: number;
  end: number;
}

/** A node's range, without its leading trivia (ts-morph's `getStart()`). */
export const rangeOf = (node: { getStart(): number; getEnd(): number }): Range => ({ start: node.getStart(), end: node.getEnd() });

export type HandlerMethod = 'tools/call' | 'prompts/get' | 'resources/read';

/**
 * A request to the client, asked through the requestState module: `target` (the server, the context or the
 * request function the request is made on) becomes `ask(target)`, and the request keeps its await, its
 * arguments and its place.
 */
export interface AskPlan {
  target: Range;
  /**
   * The name the handler binds the answer to (`const user_name = await ...`): the key the question is asked
   * under (`ask(target, 'user_name')`), which clients and the journal see. Without one, the kind of request.
   */
  key?: string;
  /**
   * `sendRequest` of `extra.sendRequest(...)` on a handler's context, which SDK 2.x's context does not have:
   * renamed `send`, the target read as `extra.mcpReq` (`ask(extra.mcpReq).send(...)`).
   */
  sendRequest?: Range;
}

/**
 * A registration whose handler may ask: its receiver becomes `resumable(receiver)`, which wraps the handler
 * it registers so that a 2026-07-28 request replays it (the handler itself is not changed).
 */
export interface RegistrationPlan {
  receiver: Range;
}

/**
 * Work a handler does before a question that must not be done again when the handler is replayed: the
 * expression becomes `journaled(() => expression)` (`async () =>` where it awaits inside), done on the round
 * that first reaches it and its result replayed on later rounds.
 */
export interface JournalPlan {
  range: Range;
  /** The expression awaits inside: the work is an async arrow. */
  async?: boolean;
  /**
   * Its value is not used and is not kept: the arrow has a block body (`() => { expression; }`), one that awaits
   * it where it is a promise (`async () => { await expression; }`).
   */
  discarded?: 'value' | 'settled';
}

/**
 * A catch or finally block of a try around a question: it starts with `rethrowIfSuspended();`, so that on a
 * round suspended for the client's answer it neither takes the suspension for an error nor runs before
 * the call ends.
 */
export interface GuardPlan {
  block: Range;
}

/** `server.getClientCapabilities()` read while a handler runs: `clientCapabilities(server)`, the request's own. */
export interface CapabilityReadPlan {
  call: Range;
  server: Range;
}

export interface MarkerPlan {
  /** Offset of the statement the marker comment goes above. */
  at: number;
  text: string;
}

export interface ServerWiringPlan {
  /** `new McpServer(...)` / `new Server(...)` whose options get `requestState: { verify }`. */
  construct: Range;
  /** The options argument, when present. */
  options?: Range;
  optionsIsObjectLiteral: boolean;
  /** The options literal's properties, when it is one: what goes one per line if the line grows too long. */
  optionProperties?: Range[];
  /** The first argument, after which options are appended when absent. */
  firstArg?: Range;
  alreadyWired: boolean;
}

export interface StdioEntryPlan {
  /** `server.connect(new StdioServerTransport())` → `serveStdio(() => server)`, the entry that serves both eras. */
  call: Range;
  serverText: string;
  /** `const transport = new StdioServerTransport();` when the transport was only made for this call. */
  removeDeclaration?: Range;
  /** Any other stdio transport (passed in, made with streams, used after connect): handed on, `serveStdio(() => server, { transport })`. */
  transportText?: string;
  /** The handler of a `.catch(handler)` on the connect() promise (the call range then covers it): serveStdio's `onerror`. */
  onerrorText?: string;
  /**
   * The body of a `.then(callback)` on the connect() promise (the call range then covers the chain), as statements
   * that go right after serveStdio's: the stdio transport listens from there on, as it did once connect() resolved.
   */
  thenText?: string;
  /**
   * `const server = createServer();`, declared before the statement starting at `before`, when connect() was
   * called on a server made there (`await createServer().connect(transport)`): serveStdio calls its factory at
   * the client's first message and may call it more than once, so the server is made once, where it was, and
   * the factory returns it (`serverText` is then its name).
   */
  declareServer?: { text: string; before: number };
}

/**
 * A Streamable HTTP entry moved to `createMcpHandler`, served on node:http / Express through
 * `toNodeHandler`: `const <name> = toNodeHandler(createMcpHandler(() => <factory>[, { legacy: 'reject' }]));`
 * is declared before the statement at `declareBefore`, outside the request handler.
 */
export interface HttpEntryPlan {
  /**
   * `stateless`: a fresh server and transport per request (`sessionIdGenerator: undefined`); the
   * statements that build, connect and close them are replaced by one call of the handler, which
   * serves both eras (2025-era requests statelessly, as before).
   * `sessionful`: 2026-07-28 requests are routed to a strict (`legacy: 'reject'`) handler in front
   * of the existing session wiring, which keeps serving 2025-era clients.
   */
  mode: 'stateless' | 'sessionful';
  name: string;
  /** Source text of the expression that builds a server (the factory's body). */
  factoryText: string;
  declareBefore: number;
  /** The arguments of the original `transport.handleRequest(...)` call: request, response, parsed body. */
  argsText: string[];
  /** stateless: the `handleRequest` statement, replaced by the handler call. */
  replace?: Range;
  /** stateless: the statements that built, connected and closed the server and transport. */
  remove?: Range[];
  /** sessionful: the statement the routing goes before (the first that reads the session). */
  routeBefore?: number;
}

/**
 * `server.sendLoggingMessage({ level, data, logger })` in a handler's own body: `<context>.mcpReq.log(level, data,
 * logger)`, the request's own log message (src/analysis/logging.ts).
 */
export interface LogPlan {
  call: Range;
  /** The handler's context parameter. */
  context: string;
  /** The handler, when it has no context parameter yet: `context` is added as its last. */
  addContextTo?: Range;
  /** Params held in a name: the members read from it (`logger` only where its type has one). */
  members?: string[];
}

export interface FilePlan {
  file: string;
  asks: AskPlan[];
  registrations: RegistrationPlan[];
  journaled: JournalPlan[];
  guards: GuardPlan[];
  capabilityReads: CapabilityReadPlan[];
  logs: LogPlan[];
  markers: MarkerPlan[];
  servers: ServerWiringPlan[];
  stdio: StdioEntryPlan[];
  http: HttpEntryPlan[];
  /** Import specifier of the requestState module from this file. */
  stateModuleSpecifier: string;
  /** The SDK module the rewrite imports from (`@modelcontextprotocol/server`). */
  sdkModule: string;
  /** Whether the file is CommonJS (require) rather than ESM. */
  commonJs: boolean;
}

/** A plan of `file` that asks for nothing yet: what the analysis starts each file's plan from. */
export function emptyPlan(file: string, target: Pick<FilePlan, 'stateModuleSpecifier' | 'sdkModule' | 'commonJs'>): FilePlan {
  return {
    file,
    asks: [],
    registrations: [],
    journaled: [],
    guards: [],
    capabilityReads: [],
    logs: [],
    markers: [],
    servers: [],
    stdio: [],
    http: [],
    ...target,
  };
}

export function isEmptyPlan(plan: FilePlan): boolean {
  return [
    plan.asks,
    plan.registrations,
    plan.journaled,
    plan.guards,
    plan.capabilityReads,
    plan.logs,
    plan.markers,
    plan.servers,
    plan.stdio,
    plan.http,
  ].every(list => list.length === 0);
}
