/**
 * Runs a scenario against one server process with a real client of one protocol era.
 */
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import {
  CallToolResultSchema,
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ListRootsRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { StreamableHTTPClientTransport as LegacyHttpTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Client as ModernClient, StreamableHTTPClientTransport as ModernHttpTransport } from '@modelcontextprotocol/client';
import { freeLoopbackPort, tapTransport, waitForPort } from './http.js';
import { AnswerBook, type CallMethod, type Scenario, type ScenarioCall } from './scenario.js';
import { ChildProcessTransport, type ChildExit, type WireMessage } from './transport.js';

/**
 * `legacy`: the SDK 1.x client, protocol <= 2025-11-25, answering the server's own requests.
 * `modern`: the SDK 2.x client pinned to 2026-07-28, fulfilling `input_required` results and retrying.
 */
export type Era = 'legacy' | 'modern';

export const MODERN_PROTOCOL_VERSION = '2026-07-28';

/** The capabilities both clients declare. */
export const CLIENT_CAPABILITIES = {
  sampling: {},
  elicitation: { form: {} },
  roots: { listChanged: false },
} as const;

export interface ServerCommand {
  /** A shell command line that starts the server on stdio (or on HTTP, see `http`). */
  command: string;
  cwd?: string;
  /** Added to the parent's environment. */
  env?: Record<string, string | undefined>;
  /**
   * The server speaks Streamable HTTP at this path (e.g. `/mcp`): the command is started with `PORT`
   * set to a free loopback port and the client connects to `http://127.0.0.1:<PORT><path>`.
   */
  http?: string;
}

export interface RunScenarioOptions extends ServerCommand {
  era: Era;
  scenario: Scenario;
  /** Per round: the connect handshake and each request the client sends. Default 10 000. */
  timeoutMs?: number;
  /** The whole run, connect to close. Default `timeoutMs * (calls + 2)`. */
  totalTimeoutMs?: number;
  /** The client capabilities to declare (default: all of sampling, form elicitation and roots). */
  capabilities?: ClientCapabilitySet;
}

/** A subset of the capabilities the verify clients can declare. */
export type ClientCapabilitySet = {
  sampling?: Record<string, never>;
  elicitation?: { form?: Record<string, never> };
  roots?: { listChanged?: boolean };
};

/** One input request the server asked of the client (a server→client request, or an embedded one). */
export interface AskedRequest {
  method: string;
  params: unknown;
}

export interface CallError {
  /** JSON-RPC error code, or the SDK's error code string for client-side failures (timeouts, aborts). */
  code?: number | string;
  message: string;
}

export interface CallOutcome {
  name: string;
  method: CallMethod;
  params: Record<string, unknown>;
  /** The final result, as the client returned it. Absent when the call failed. */
  result?: unknown;
  error?: CallError;
  /** The input requests the client was asked to answer during this call, in order. */
  requests: AskedRequest[];
  /**
   * Rounds the call took. Modern era: how many times the client sent the request (1 + the retries after
   * `input_required`). Legacy era: the number of server→client requests during the call, plus 1 — the
   * number of times the handler had to wait for the client, plus the final answer — so a faithful migration
   * of sequential awaits gives the same count on both eras (batching independent requests gives fewer).
   */
  rounds: number;
  /** Protocol violations seen during the call; any of them makes the call fail in verify. */
  violations: string[];
  durationMs: number;
}

export interface RunResult {
  era: Era;
  command: string;
  /** True when the client connected. */
  connected: boolean;
  /** The protocol version the connection settled on. */
  protocolVersion?: string;
  serverInfo?: { name: string; version: string };
  /** A failure of the whole run (connect failed, server crashed or hung, overall timeout). */
  fatal?: string;
  /** One per scenario call, in order; calls never made (after a fatal failure) carry its reason as error. */
  calls: CallOutcome[];
  /** Violations outside any call (e.g. garbage on stdout during connect). */
  violations: string[];
  /** Tail of the server's stderr. */
  stderr: string;
  exit?: ChildExit;
  durationMs: number;
}

/** Both SDK clients behind one face. */
interface EraClient {
  /** Connects over the child's stdio, or over the HTTP transport `httpTransport` made. */
  connect(transport: object, timeout: number): Promise<void>;
  /** The era's own Streamable HTTP client transport. */
  httpTransport(url: URL): object;
  call(method: CallMethod, params: Record<string, unknown>, options: { timeout: number; signal: AbortSignal }): Promise<unknown>;
  listTools(timeout: number): Promise<unknown[]>;
  listPrompts(timeout: number): Promise<unknown[]>;
  serverInfo(): { name: string; version: string } | undefined;
  protocolVersion(): string | undefined;
  close(): Promise<void>;
}

type AskHandler = (method: string, params: unknown) => Record<string, unknown>;

const CLIENT_INFO = { name: 'mcp-migrate-verify', version: '0.1.0' };

function legacyClient(onAsk: AskHandler, onError: (error: Error) => void, capabilities: ClientCapabilitySet): EraClient {
  const client = new LegacyClient(CLIENT_INFO, { capabilities: structuredClone(capabilities) });
  client.onerror = onError;
  // The results are the scenario's answers, passed through as given: the client validates them.
  if (capabilities.elicitation) client.setRequestHandler(ElicitRequestSchema, request => onAsk(request.method, request.params) as never);
  if (capabilities.sampling)
    client.setRequestHandler(CreateMessageRequestSchema, request => onAsk(request.method, request.params) as never);
  if (capabilities.roots) client.setRequestHandler(ListRootsRequestSchema, request => onAsk(request.method, request.params) as never);
  let version: string | undefined;
  return {
    async connect(transport, timeout) {
      const inner = transport as unknown as { setProtocolVersion?: (v: string) => void };
      // The HTTP transport needs the version itself (it sends it as a header).
      const own = inner.setProtocolVersion?.bind(inner);
      inner.setProtocolVersion = v => {
        version = v;
        own?.(v);
      };
      await client.connect(transport as never, { timeout });
    },
    httpTransport: url => new LegacyHttpTransport(url),
    async call(method, params, options) {
      try {
        switch (method) {
          case 'tools/call':
            return await client.callTool(params as never, CallToolResultSchema, options);
          case 'prompts/get':
            return await client.getPrompt(params as never, options);
          case 'resources/read':
            return await client.readResource(params as never, options);
        }
      } catch (error) {
        throw asServerSentIt(error);
      }
    },
    async listTools(timeout) {
      return (await client.listTools(undefined, { timeout })).tools;
    },
    async listPrompts(timeout) {
      return (await client.listPrompts(undefined, { timeout })).prompts;
    },
    serverInfo: () => client.getServerVersion(),
    protocolVersion: () => version,
    close: () => client.close(),
  };
}

/**
 * The 1.x client raises an error response as an McpError, whose message puts "MCP error <code>: " before
 * the message the server sent; the 2.x client keeps that message as it is. Taken off, both eras compare
 * what the server sent (a 1.x server's own McpError prefix included).
 */
function asServerSentIt(error: unknown): unknown {
  const code = error instanceof Error ? (error as { code?: unknown }).code : undefined;
  const prefix = `MCP error ${String(code)}: `;
  if (error instanceof Error && typeof code === 'number' && error.message.startsWith(prefix))
    error.message = error.message.slice(prefix.length);
  return error;
}

function modernClient(onAsk: AskHandler, onError: (error: Error) => void, capabilities: ClientCapabilitySet): EraClient {
  const client = new ModernClient(CLIENT_INFO, {
    capabilities: structuredClone(capabilities),
    versionNegotiation: { mode: { pin: MODERN_PROTOCOL_VERSION } },
  });
  client.onerror = onError;
  if (capabilities.elicitation) client.setRequestHandler('elicitation/create', request => onAsk(request.method, request.params) as never);
  if (capabilities.sampling) client.setRequestHandler('sampling/createMessage', request => onAsk(request.method, request.params) as never);
  if (capabilities.roots) client.setRequestHandler('roots/list', request => onAsk(request.method, request.params) as never);
  return {
    async connect(transport, timeout) {
      await client.connect(transport as never, { timeout });
    },
    httpTransport: url => new ModernHttpTransport(url),
    call(method, params, options) {
      switch (method) {
        case 'tools/call':
          return client.callTool(params as never, options);
        case 'prompts/get':
          return client.getPrompt(params as never, options);
        case 'resources/read':
          return client.readResource(params as never, { ...options, cacheMode: 'bypass' });
      }
    },
    async listTools(timeout) {
      return (await client.listTools(undefined, { timeout })).tools;
    },
    async listPrompts(timeout) {
      return (await client.listPrompts(undefined, { timeout })).prompts;
    },
    serverInfo: () => client.getServerVersion(),
    protocolVersion: () => client.getNegotiatedProtocolVersion(),
    close: () => client.close(),
  };
}

function errorOf(error: unknown): CallError {
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    return {
      ...(typeof code === 'number' || typeof code === 'string' ? { code } : {}),
      message: error.message,
    };
  }
  return { message: String(error) };
}

function describeExit(exit: ChildExit | undefined): string {
  if (!exit) return '';
  return exit.signal ? `server was killed by ${exit.signal}` : `server exited with code ${exit.code}`;
}

function withStderr(message: string, stderr: string): string {
  const tail = stderr.trim().split('\n').slice(-8).join('\n');
  return tail ? `${message}\n--- server stderr (tail) ---\n${tail}` : message;
}

/** Per-call bookkeeping the transport taps fill in. */
interface CallTrack {
  call: ScenarioCall;
  book: AnswerBook;
  requests: AskedRequest[];
  violations: string[];
  sent: number;
  serverRequests: number;
  abort: AbortController;
}

/** A live connection to one server process. */
export interface Session {
  era: Era;
  /** The server process; on stdio also the client's transport. */
  transport: ChildProcessTransport;
  /** Set for a server on Streamable HTTP: its path, and the port it was given. */
  http?: { path: string; port: number };
  client: EraClient;
  /** Violations outside a call. */
  violations: string[];
  /** The client's own error reports (dropped messages, bad answers), for diagnostics. */
  clientErrors: string[];
  /** Tracks one call while it runs; `undefined` between calls. */
  current?: CallTrack;
  /** The last `server/discover` or `initialize` reply, to explain a failed connect. */
  handshakeReply?: WireMessage;
  /** The handshake requests the client sent. */
  handshakeSent: string[];
}

const HANDSHAKE_METHODS = new Set(['server/discover', 'initialize']);

/** Builds the client and the (not yet started) transport for one server process. */
async function createSession(era: Era, server: ServerCommand, capabilities: ClientCapabilitySet = CLIENT_CAPABILITIES): Promise<Session> {
  const http =
    server.http !== undefined
      ? { path: server.http.startsWith('/') ? server.http : `/${server.http}`, port: await freeLoopbackPort() }
      : undefined;
  const env = http ? { ...server.env, PORT: String(http.port) } : server.env;
  const transport = new ChildProcessTransport({ command: server.command, cwd: server.cwd, env, stdoutIsProtocol: !http });
  const session: Session = {
    era,
    transport,
    ...(http ? { http } : {}),
    client: undefined as never,
    violations: [],
    clientErrors: [],
    handshakeSent: [],
  };
  const handshakeIds = new Map<unknown, string>();

  const onAsk: AskHandler = (method, params) => {
    const track = session.current;
    if (!track) {
      session.violations.push(`${method} asked outside any call`);
      return new AnswerBook().next(method, params);
    }
    track.requests.push({ method, params: structuredClone(params ?? null) ?? undefined });
    return track.book.next(method, params);
  };
  session.client =
    era === 'legacy'
      ? legacyClient(onAsk, e => session.clientErrors.push(e.message), capabilities)
      : modernClient(onAsk, e => session.clientErrors.push(e.message), capabilities);

  transport.onClientMessage = message => {
    if (typeof message.method === 'string' && HANDSHAKE_METHODS.has(message.method) && message.id !== undefined) {
      handshakeIds.set(message.id, message.method);
      session.handshakeSent.push(message.method);
    }
    const track = session.current;
    if (track && message.method === track.call.method && message.id !== undefined) track.sent++;
  };
  transport.onServerMessage = message => {
    if (message.id !== undefined && handshakeIds.has(message.id) && message.method === undefined) {
      session.handshakeReply = message;
    }
    const track = session.current;
    const isRequest = typeof message.method === 'string' && message.id !== undefined && message.id !== null;
    if (isRequest) {
      if (track) track.serverRequests++;
      if (era === 'modern') {
        const text =
          `server sent a JSON-RPC request (${String(message.method)}) on a ${MODERN_PROTOCOL_VERSION} connection; ` +
          'this era has no server→client requests (return input_required instead)';
        if (track) {
          track.violations.push(text);
          track.abort.abort(new Error(text));
        } else {
          session.violations.push(text);
        }
      }
      return;
    }
    const result = message.result as Record<string, unknown> | undefined;
    if (era === 'legacy' && result && typeof result === 'object' && result.resultType === 'input_required') {
      const text = 'server answered a 2025-era client with an input_required result (no legacy shim)';
      (track?.violations ?? session.violations).push(text);
    }
  };
  transport.onGarbage = line => {
    const text = `server wrote a non-JSON-RPC line to stdout: ${JSON.stringify(line.slice(0, 200))}`;
    (session.current?.violations ?? session.violations).push(text);
  };

  return session;
}

/** Spawns the server and connects; throws a message explaining the failure (without stderr). */
async function connectSession(session: Session, timeoutMs: number): Promise<void> {
  try {
    let target: object = session.transport;
    if (session.http) {
      const { port, path } = session.http;
      await session.transport.start();
      // Twice the round timeout: starting a server takes longer than one round.
      await waitForPort(port, 2 * timeoutMs, () => describeExit(session.transport.exit) || undefined);
      const transport = session.transport;
      target = tapTransport(
        session.client.httpTransport(new URL(`http://127.0.0.1:${port}${path}`)),
        message => transport.onClientMessage?.(message),
        message => transport.onServerMessage?.(message),
      );
    }
    await session.client.connect(target, timeoutMs);
  } catch (error) {
    throw new Error(explainConnectFailure(session, error, timeoutMs));
  }
}

/** Spawns the server and connects a client of the era; throws (with the server's stderr) on failure. */
export async function openSession(era: Era, server: ServerCommand, timeoutMs: number): Promise<Session> {
  const session = await createSession(era, server);
  try {
    await connectSession(session, timeoutMs);
  } catch (error) {
    await closeSession(session);
    throw new Error(withStderr(errorOf(error).message, session.transport.stderr));
  }
  return session;
}

function explainConnectFailure(session: Session, error: unknown, timeoutMs: number): string {
  const parts = [`connect failed (${session.era} client): ${errorOf(error).message}`];
  const reply = session.handshakeReply;
  const exited = session.transport.unpromptedExit;
  if (!reply && !exited && session.handshakeSent.length > 0) {
    parts.push(
      `no reply to ${session.handshakeSent.join(', ')} within ${timeoutMs} ms (server hung or not an MCP ${session.http ? 'HTTP' : 'stdio'} server?)`,
    );
  }
  if (session.era === 'modern' && reply?.error && typeof reply.error === 'object') {
    const e = reply.error as { code?: unknown; message?: unknown };
    parts.push(
      `the server answered server/discover with error ${String(e.code)} "${String(e.message)}": ` +
        `it does not speak ${MODERN_PROTOCOL_VERSION} (an SDK 1.x server only serves the 2025 era)`,
    );
  } else if (session.era === 'modern' && reply?.result && typeof reply.result === 'object') {
    const versions = (reply.result as { supportedVersions?: unknown }).supportedVersions;
    parts.push(`server/discover offered ${JSON.stringify(versions)}, not ${MODERN_PROTOCOL_VERSION}`);
  }
  const exit = describeExit(exited);
  if (exit) parts.push(exit);
  return parts.join('; ');
}

/** Ends the session; never throws, always kills the child. */
export async function closeSession(session: Session): Promise<void> {
  try {
    await Promise.race([session.client.close(), new Promise(resolve => setTimeout(resolve, 1000).unref())]);
  } catch {
    // The transport close below is what matters.
  }
  await session.transport.close();
}

async function runCall(session: Session, call: ScenarioCall, timeoutMs: number): Promise<CallOutcome> {
  const track: CallTrack = {
    call,
    book: new AnswerBook(call.answers),
    requests: [],
    violations: [],
    sent: 0,
    serverRequests: 0,
    abort: new AbortController(),
  };
  session.current = track;
  const started = Date.now();
  let result: unknown;
  let error: CallError | undefined;
  try {
    result = await session.client.call(call.method, structuredClone(call.params), { timeout: timeoutMs, signal: track.abort.signal });
  } catch (e) {
    error = errorOf(track.abort.signal.aborted ? track.abort.signal.reason : e);
    const exit = describeExit(session.transport.unpromptedExit);
    if (exit) error.message = withStderr(`${error.message} (${exit})`, session.transport.stderr);
  } finally {
    session.current = undefined;
  }
  return {
    name: call.name,
    method: call.method,
    params: call.params,
    ...(error ? { error } : { result }),
    requests: track.requests,
    rounds: session.era === 'modern' ? track.sent : track.serverRequests + 1,
    violations: track.violations,
    durationMs: Date.now() - started,
  };
}

function notRun(call: ScenarioCall, reason: string): CallOutcome {
  return {
    name: call.name,
    method: call.method,
    params: call.params,
    error: { message: reason },
    requests: [],
    rounds: 0,
    violations: [],
    durationMs: 0,
  };
}

/**
 * Spawns `command`, connects a client of `era` over stdio and makes the scenario's calls in order.
 * Never throws for a misbehaving server and never hangs: connect failures, crashes and timeouts come back as
 * `fatal` / per-call errors. The child is killed on every path.
 */
export async function runScenario(options: RunScenarioOptions): Promise<RunResult> {
  const timeoutMs = options.timeoutMs ?? 10_000;
  const totalTimeoutMs = options.totalTimeoutMs ?? timeoutMs * (options.scenario.calls.length + 2);
  const started = Date.now();
  const base = { era: options.era, command: options.command };
  let fatal: string | undefined;
  const calls: CallOutcome[] = [];

  let expired = false;
  /** Set once the result is being assembled: a call still in flight after that is not recorded. */
  let finalized = false;
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<'expired'>(resolve => {
    timer = setTimeout(() => {
      expired = true;
      resolve('expired');
    }, totalTimeoutMs);
  });

  const session = await createSession(options.era, options, options.capabilities);
  let connected = false;
  let protocolVersion: string | undefined;
  let serverInfo: { name: string; version: string } | undefined;
  const work = (async () => {
    try {
      await connectSession(session, timeoutMs);
      connected = true;
      protocolVersion = session.client.protocolVersion();
      serverInfo = session.client.serverInfo();
    } catch (error) {
      fatal = errorOf(error).message;
      return;
    }
    for (const call of options.scenario.calls) {
      if (expired) return;
      const outcome = await runCall(session, call, timeoutMs);
      if (finalized) return;
      calls.push(outcome);
      if (session.transport.unpromptedExit && !fatal) fatal = `${describeExit(session.transport.unpromptedExit)} during "${call.name}"`;
      if (fatal) return;
    }
  })().catch((error: unknown) => {
    // A bug of ours, not the server's: still a reported failure, and the child still goes.
    fatal ??= `verify runner failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`;
  });

  const raced = await Promise.race([work.then(() => 'done' as const), deadline]);
  clearTimeout(timer);
  if (raced === 'expired') {
    fatal = `run did not finish within ${totalTimeoutMs} ms (server hung?)`;
    session.current?.abort.abort(new Error(fatal));
    await closeSession(session);
    await Promise.race([work, new Promise(resolve => setTimeout(resolve, 2000).unref())]);
  }
  await closeSession(session);
  finalized = true;
  for (const call of options.scenario.calls.slice(calls.length)) {
    calls.push(notRun(call, `not run: ${fatal ?? 'run aborted'}`));
  }
  return {
    ...base,
    connected,
    ...(protocolVersion ? { protocolVersion } : {}),
    ...(serverInfo ? { serverInfo } : {}),
    ...(fatal ? { fatal: withStderr(fatal, session.transport.stderr) } : {}),
    calls,
    violations: session.violations,
    stderr: session.transport.stderr,
    ...(session.transport.exit ? { exit: session.transport.exit } : {}),
    durationMs: Date.now() - started,
  };
}
