/**
 * The plan: what the analysis decided, as plain data (offsets into the file's text), so the
 * rewrite needs no type information and a plan can be printed, stored or tested on its own.
 */
import type { SiteKind } from './report.js';

export interface Range {
  start: number;
  end: number;
}

/** The SDK v2 builder an embedded request is made with. */
export type RequestBuilder = 'elicit' | 'elicitUrl' | 'createMessage' | 'listRoots';

/** The reader (exported by the requestState module) that turns an input response back into the legacy await's value. */
export type ResponseReader = 'elicitResult' | 'samplingResult' | 'rootsResult';

export interface RequestPlan {
  /** Key in `inputRequests` / `inputResponses`. */
  key: string;
  kind: SiteKind;
  builder: RequestBuilder;
  reader: ResponseReader;
  /** Source text of the builder's argument (request params), `undefined` for `listRoots()`. */
  paramsText?: string;
  /** Source text of the requested schema when it can be repeated in the resuming phase (validation on re-entry). */
  schemaText?: string;
  /** The expression replaced by the reader in the resuming phase: the `await` (or the `Promise.all` element). */
  replace: Range;
  /**
   * Made by a callback a wrapper ran (`await withTimeout(async () => server.elicitInput(q), ms)`), whose call
   * `replace` covers: the line the round's request gets, saying what the wrapper no longer does, and the
   * name the wrapper is reached by (its import goes when nothing else uses it).
   */
  unwrapped?: { note: string; wrapper: string };
  /**
   * Its arguments change a local of the handler (`message: `Question ${++asked}``): printed where it is asked, never
   * moved into a builder, where the change would be made to the builder's parameter instead of the handler's local.
   */
  changesLocals?: boolean;
}

export interface CarriedLocal {
  name: string;
  /** How it is re-declared in the resuming phase; `assign` for a reassigned parameter. */
  declare: 'const' | 'let' | 'var' | 'assign';
  typeText?: string;
  /**
   * Its type as a field of the handler's steps (TypeScript) where `typeText` has none: what the reader
   * of an earlier round returns (the local holds that round's answer), or a type written out (`number`,
   * `typeof param`, `unknown`; `any` where the local's own type is `any` or cannot be named at the handler).
   */
  stepType?: { reader: ResponseReader } | { text: string };
  /** The block, case clause or loop it is declared in (the function body for top-level locals). */
  scope: Range;
  /** Set when its size is not bounded by its type (an array, a record): the state may hit the size limit. */
  unbounded?: string;
  /**
   * Assigned the answer where the phase resumes (`x = await server.elicitInput(...)`): its value
   * before the round is dead, so it is re-declared there without one and not carried.
   */
  answered?: boolean;
}

export interface RecomputedLocal {
  name: string;
  /** Its declaration statement. */
  range: Range;
  /** The initializer's text, on one line. */
  initializer: string;
  /** What it is (`an instance of class ApiClient`). */
  what: string;
}

export interface SuspensionPlan {
  /**
   * The step the handler resumes at after this suspension, named by what the round waits for
   * (`awaiting-review` for the request keyed `review`), unique in the handler.
   */
  step: string;
  /** The statements of this round, in order: one, or several adjacent independent awaits batched into one round. */
  statements: Range[];
  requests: RequestPlan[];
  /** Locals live across the suspension, restored from requestState on re-entry. */
  live: CarriedLocal[];
  /**
   * Local function declarations, and locals that cannot travel as JSON but can be made again (an API client,
   * a pool: `recomputedLocals`), re-created (not carried) in the resuming phase.
   */
  recompute: Range[];
  /** Of `recompute`, the locals: each gets a comment where it is made again, and a line of the report to review. */
  recomputedLocals?: RecomputedLocal[];
  /**
   * Inside a try block (or the catch of a try with a finally): the client's declared capabilities are
   * checked first, so the catch and the finally see what the legacy await threw.
   */
  insideTry?: boolean;
  /** Inside a try (or its catch) that has a finally: the round sets the handler's `finallyGuard` flag as it returns. */
  guardsFinally?: boolean;
  /** For a `Promise.all([...])`: its range, replaced by an array of the readers. */
  promiseAll?: Range;
  /**
   * The requests' arguments change a local the round carries (`message: `Question ${++asked}``): the requests are
   * built in a statement of their own before the state is sealed, so the state holds the locals as changed.
   */
  requestsFirst?: boolean;
  /**
   * The elements of its Promise.all that are not requests (`loadRecord(id)`), in order: each awaited where the round
   * suspends, after its requests are built, its value carried as `name` and put in its place when the round resumes.
   */
  besides?: { range: Range; name: string }[];
}

/** A loop that contains a suspension: the resuming phase re-enters it mid-iteration. */
export interface LoopPlan {
  range: Range;
  /** `for-await-of`: over an array or tuple, each item awaited as it is read, as the original loop did. */
  kind: 'for-of' | 'for-await-of' | 'for-in' | 'for' | 'while' | 'do';
  /** Set on re-entry for the iteration that was suspended. */
  first: string;
  /**
   * for-of, for-await-of: the snapshot of the iterated values; for-in: of the keys. With the position
   * in it, both carried in requestState.
   */
  items?: string;
  index?: string;
}

/** A switch with a suspension in a case: the resuming phase runs the rest in a block labelled `label`. */
export interface SwitchPlan {
  range: Range;
  label: string;
  /** `break;` statements that leave this switch, rewritten to `break label;` in the resuming phase. */
  breaks: Range[];
}

/**
 * A declaration nothing reads once the requests are built by `inputRequired` (a local that only reached
 * the server: `const { server } = this.mcp;`), removed from every phase it would be printed in.
 */
export interface DroppedDeclaration {
  /** The statement (`whole`), or the text of the declarators or destructured bindings that go, with their commas. */
  range: Range;
  whole?: boolean;
}

/**
 * The declaration of a handle made again on resume, where the handler made it before its question: nothing
 * reads it there (its reads come after the round that suspends next), so only its effect is kept.
 */
export interface UnreadWhereMade {
  /** The declaration statement, as the handler wrote it. */
  range: Range;
  /** Its initializer, printed alone as a statement (`await connect();`); undefined when reading it does nothing else (`this.mcp.server`): the statement goes. */
  keep?: Range;
}

export type HandlerMethod = 'tools/call' | 'prompts/get' | 'resources/read';

export interface HandlerPlan {
  method: HandlerMethod;
  /** Short label for reports: `tools/call greet`. */
  label: string;
  fn: Range;
  body: Range;
  /** Source text of the tool/prompt/resource name expression (a literal, or e.g. `request.params.name`). */
  nameText: string;
  /** Source text of the value the state is bound to (the arguments the handler reads). */
  argsText: string;
  /**
   * Set when the phases are the body of a callback the handler returns through a pass-through wrapper
   * (`return tracer.span('x', async span => { ... })`): `fn` and `body` are the callback's, the context
   * parameter is `host`'s (the registered handler), and `note` goes above the wrapper's call, at `statement`.
   */
  host?: { fn: Range; statement: number; note: string };
  /** The context parameter's name, and the parameters to append when the handler declares none. */
  ctx: {
    name: string;
    add?: string[];
    /** The added parameters need type annotations (`ServerContext`, `unknown`): a handler passed by name has no contextual type. */
    typed?: boolean;
  };
  suspensions: SuspensionPlan[];
  /** Declarations of the handler that only its rewritten requests read: they go. */
  dropped?: DroppedDeclaration[];
  /** Handles made again on resume that nothing reads where the handler first makes them: printed there for their effect alone. */
  unreadWhereMade?: UnreadWhereMade[];
  /** `server.getClientCapabilities()` calls in the handler: read from the request instead (`clientCapabilities(ctx, server)`). */
  capabilityReads?: { range: Range; serverText: string }[];
  loops: LoopPlan[];
  switches: SwitchPlan[];
  /**
   * Set when a suspension sits in a try with a finally block. `flag` is declared false in each phase
   * that can suspend there and set just before such a round returns input_required (the request built
   * first, held in `round`); each finally the round passes through is wrapped in `if (!flag)`, so it
   * runs once, on the round that leaves its try for good.
   */
  finallyGuard?: {
    flag: string;
    round: string;
    /** Trys whose finally only releases handles made again in each phase: it runs in every phase, unguarded. */
    perPhase?: Range[];
  };
}

/**
 * A handler that only returns a call of the project's function or method, whose bodies are migrated
 * as its delegates (handler plans of their own): it passes its context on to them.
 */
export interface DelegatingPlan {
  /** The handler: its context parameter is appended when it declares none. */
  fn: Range;
  ctx: HandlerPlan['ctx'];
  /** The call it returns: the context is appended to its arguments. */
  call: Range;
}

/** The delegate's declaration without a body (an abstract method): it takes the context, and may return input_required. */
export interface DelegateSignaturePlan {
  fn: Range;
  ctx: HandlerPlan['ctx'];
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

export interface FilePlan {
  file: string;
  handlers: HandlerPlan[];
  markers: MarkerPlan[];
  servers: ServerWiringPlan[];
  stdio: StdioEntryPlan[];
  http: HttpEntryPlan[];
  delegating?: DelegatingPlan[];
  delegateSignatures?: DelegateSignaturePlan[];
  /**
   * Function types (`(args: any, extra: any) => Promise<CallToolResult>`) of wrapper parameters that
   * handlers migrated here are registered through (src/analysis/wrappers.ts): their return types are
   * widened by InputRequiredResult.
   */
  widenedCallbackTypes?: Range[];
  /**
   * Code nothing uses once the file is rewritten (src/analysis/deadCode.ts): the top-level statements that go
   * (by their start, comments before them going with them), and the locals of the project's imports only they read.
   */
  removed?: { statements: Range[]; imports: string[] };
  /** Import specifier of the requestState module from this file. */
  stateModuleSpecifier: string;
  /** The SDK module the builders are imported from (`@modelcontextprotocol/server`). */
  sdkModule: string;
  /** Whether the file is CommonJS (require) rather than ESM. */
  commonJs: boolean;
}

export function isEmptyPlan(plan: FilePlan): boolean {
  return plan.handlers.length === 0 && plan.markers.length === 0 && plan.servers.length === 0 && plan.stdio.length === 0 && plan.http.length === 0 && !plan.delegating?.length && !plan.delegateSignatures?.length && !plan.widenedCallbackTypes?.length;
}
