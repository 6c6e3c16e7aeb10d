/**
 * Projects written the way SDK 1.x servers are written (test/user-projects/), each migrated as its
 * user would migrate it: far from this repository, installed from its own lockfile, one CLI run, then
 * the install the notes ask for, the project's own tsc, `--check`, and verify on both eras (see
 * test/support/userProject.ts). What each project must show is in PROJECTS below, one entry per
 * project: its request sites (rewritten, or marked with a reason), and the checks a known bug makes
 * fail today, each an `it.fails` that names the bug and holds only for its symptom
 * (test/support/expectations.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT_WONT_START } from '../src/format-report.js';
import { formatVerifyTable, parseScenario, type VerifyResult } from '../src/verify/index.js';
import {
  assertSite,
  check,
  describeSite,
  markersUnder,
  markerLines,
  unexpectedSites,
  type Known,
  type SiteExpectation,
} from './support/expectations.js';
import {
  limiter,
  migrateAsUser,
  REPO_ROOT,
  runCli,
  timed,
  typecheck,
  verifyProject,
  type CliRun,
  type Ran,
  type UserProjectRun,
} from './support/userProject.js';

const PROJECTS_DIR = path.join(REPO_ROOT, 'test', 'user-projects');

type Check = 'cli' | 'unexpected' | 'markers' | 'check' | 'install' | 'tsc' | 'starts' | 'verify' | 'style';

interface UserProject {
  name: string;
  /** The entry, relative to `serveFrom`, with its arguments. */
  entry: string;
  /** Where the server is started from (a workspace package), relative to the project. */
  serveFrom?: string;
  /** The tsconfig files the project's own tsc checks, relative to the project. */
  tsconfigs?: string[];
  sites: SiteExpectation[];
  known?: Partial<Record<Check, Known | Known[]>>;
  /** Check that rewritten files keep their indentation and line endings. */
  style?: boolean;
  /** The server speaks Streamable HTTP at this path (verify gives it a PORT). */
  http?: string;
  /** The server's environment instead of the harness's (which sets MCP_REQUEST_STATE_KEY). */
  serverEnv?: Record<string, string>;
  /** With a known verify failure: the scenario's calls it does not touch, which must pass on both eras. */
  verifyUntouched?: string[];
}

/** Not a bug: a site that must stay marked cannot answer a 2026-07-28 client. */
const BY_DESIGN = (what: string, symptom: RegExp): Known => ({ issue: 'by design', what, symptom });
const NO_DISCOVER = /server\/discover with error -32601/;
/** A verify table row of `call` on the modern era that failed. */
const modernFails = (call: string) => new RegExp(`${call}\\s+after, modern client\\s+\\d+\\s+FAIL`);

const PROJECTS: UserProject[] = [
  {
    name: 'factory-server',
    entry: 'src/index.ts',
    sites: [
      { file: 'src/server.ts', at: 'await server.server.elicitInput', kind: 'elicitation', expect: 'rewrite' },
      { file: 'src/server.ts', at: 'await server.server.createMessage', kind: 'sampling', expect: 'rewrite' },
    ],
  },
  {
    name: 'holder-getter',
    entry: 'src/index.ts',
    sites: [
      { file: 'src/app.ts', at: 'await mcp.server.elicitInput', kind: 'elicitation', expect: 'rewrite' },
      { file: 'src/app.ts', at: 'await this.server!.server.createMessage', kind: 'sampling', expect: 'rewrite' },
      { file: 'src/app.ts', at: 'await current.server.listRoots()', kind: 'roots', expect: 'rewrite' },
    ],
  },
  {
    name: 'class-tools',
    entry: 'src/index.ts',
    sites: [
      { file: 'src/tools/translate.ts', at: 'await this.server.server.createMessage', kind: 'sampling', expect: 'rewrite' },
      { file: 'src/tools/feedback.ts', at: 'await this.server.server.elicitInput', kind: 'elicitation', expect: 'rewrite' },
    ],
  },
  {
    name: 'destructured-channels',
    entry: 'src/index.ts',
    sites: [
      { file: 'src/index.ts', at: 'const answer = await sendRequest(', kind: 'elicitation', expect: 'rewrite' },
      { file: 'src/index.ts', at: 'const result = await sendRequest(', kind: 'sampling', expect: 'rewrite' },
      { file: 'src/index.ts', at: "await extra.sendRequest({ method: 'roots/list' }", kind: 'roots', expect: 'rewrite' },
    ],
  },
  {
    name: 'cross-file-builtins',
    entry: 'src/index.ts',
    sites: [
      // The helper of another file asks where it is written, while the handler that calls it runs.
      { file: 'src/helpers/paths.ts', at: 'await server.server.elicitInput', kind: 'elicitation', expect: 'rewrite' },
    ],
  },
  {
    name: 'workspace-paths',
    entry: 'src/index.ts',
    serveFrom: 'packages/server',
    tsconfigs: ['packages/server/tsconfig.json', 'packages/shared/tsconfig.json'],
    sites: [{ file: 'packages/shared/src/ask.ts', at: 'await server.server.elicitInput', kind: 'elicitation', expect: 'rewrite' }],
  },
  {
    // One package whose files import one another through a tsconfig paths alias (`@/server`), the tools in files
    // that import nothing of the SDK: they were not read, and the migrated server died as it started.
    name: 'alias-tools',
    entry: 'src/index.ts',
    sites: [{ file: 'src/tools/delete.ts', at: 'await server.server.elicitInput', kind: 'elicitation', expect: 'rewrite' }],
  },
  {
    name: 'after-connect',
    entry: 'src/index.ts',
    sites: [
      { file: 'src/index.ts', at: 'await server.server.elicitInput', kind: 'elicitation', expect: 'rewrite' },
      // Under serveStdio the server is connected at the client's first message: a use right after connect() fails.
      { file: 'src/index.ts', at: 'await server.connect(transport)', kind: 'entry', expect: 'mark', because: /used once connected/ },
    ],
    known: {
      starts: BY_DESIGN('a stdio entry that uses the server once connected stays on connect(), serving 2025-era clients', NO_DISCOVER),
      verify: BY_DESIGN('a stdio entry that uses the server once connected stays on connect(), serving 2025-era clients', NO_DISCOVER),
    },
  },
  {
    // Log messages sent from handlers (one with its context, one without, one through a helper of the project)
    // and a keep-alive ping: the handlers' become the request's own, the helper's and the ping are marked.
    name: 'log-and-ping',
    entry: 'src/index.ts',
    sites: [
      { file: 'src/server.ts', at: "await server.sendLoggingMessage({ level: 'info'", kind: 'logging', expect: 'rewrite' },
      { file: 'src/server.ts', at: 'await server.server.elicitInput', kind: 'elicitation', expect: 'rewrite' },
      { file: 'src/server.ts', at: "await server.sendLoggingMessage({ level: 'debug'", kind: 'logging', expect: 'rewrite' },
      {
        file: 'src/log.ts',
        at: 'await server.sendLoggingMessage',
        kind: 'logging',
        expect: 'mark',
        because: /hand the handler's context \(ctx\) down to here/,
      },
      {
        file: 'src/index.ts',
        at: 'server.server.ping()',
        kind: 'request',
        expect: 'mark',
        because: /ping is a request to the client that MCP 2026-07-28 does not have/,
      },
    ],
  },
  {
    // Dates in tool schemas, one module holding them: zod 4, which SDK 2.x needs, cannot write z.coerce.date() as
    // JSON Schema, and tools/list failed on both eras once zod was raised. No request: nothing is marked.
    name: 'zod-dates',
    entry: 'src/index.ts',
    sites: [],
  },
  {
    // Steps typed as one interface, made as different classes: the auth check's execute() never asks (the intent
    // step's does), so it is journaled before the question and counted once on both eras (the audit tool).
    name: 'auth-steps',
    entry: 'src/index.ts',
    sites: [{ file: 'src/steps/intent.ts', at: 'await this.server.server.elicitInput', kind: 'elicitation', expect: 'rewrite' }],
  },
  {
    // A task handed out by the store, raised after the question: on a later round of a 2026-07-28 call it is a
    // copy read back from requestState, so the store never changes. Marked; the modern era shows the loss.
    name: 'task-triage',
    entry: 'src/index.ts',
    sites: [
      { file: 'src/index.ts', at: 'await server.server.elicitInput', kind: 'elicitation', expect: 'rewrite' },
      {
        file: 'src/index.ts',
        at: "task.priority = 'high'",
        kind: 'request',
        expect: 'mark',
        because: /changes what it returned after a question: on a later round of a 2026-07-28 call that is a copy/,
      },
    ],
    known: {
      verify: BY_DESIGN(
        'a journaled task changed after the question is marked, not rewritten: on a 2026-07-28 call the change lands on a copy until the handler re-reads it',
        modernFails('tasks after'),
      ),
    },
  },
  {
    name: 'recursion-beside-request',
    entry: 'src/index.ts',
    sites: [{ file: 'src/index.ts', at: 'await server.server.createMessage', kind: 'sampling', expect: 'rewrite' }],
  },
  {
    name: 'whitespace-styles',
    entry: 'src/index.ts',
    sites: [
      { file: 'src/tabs.ts', at: 'await server.server.elicitInput', kind: 'elicitation', expect: 'rewrite' },
      { file: 'src/four.ts', at: 'await server.server.elicitInput', kind: 'elicitation', expect: 'rewrite' },
      { file: 'src/crlf.ts', at: 'await server.server.elicitInput', kind: 'elicitation', expect: 'rewrite' },
    ],
    style: true,
  },
  {
    name: 'js-package',
    entry: 'src/index.js',
    sites: [
      { file: 'src/index.js', at: 'await server.server.createMessage', kind: 'sampling', expect: 'rewrite' },
      { file: 'src/recipes.js', at: 'await server.server.elicitInput', kind: 'elicitation', expect: 'rewrite' },
    ],
  },
  {
    name: 'api-client-handles',
    entry: 'src/index.ts',
    sites: [
      { file: 'src/index.ts', at: 'const pick = await server.server.elicitInput', kind: 'elicitation', expect: 'rewrite' },
      { file: 'src/index.ts', at: 'const answer = await server.server.elicitInput', kind: 'elicitation', expect: 'rewrite' },
    ],
  },
  {
    name: 'class-execute-route',
    entry: 'src/index.ts',
    sites: [
      // The handler registered in BaseTool only returns this.execute(...): each class's execute() asks where it is written.
      { file: 'src/tools/RouteTool.ts', at: 'await this.server.server.elicitInput', kind: 'elicitation', expect: 'rewrite' },
      { file: 'src/tools/SummaryTool.ts', at: 'await this.server.server.createMessage', kind: 'sampling', expect: 'rewrite' },
    ],
  },
  {
    name: 'elicitator-field',
    entry: 'src/index.ts',
    sites: [
      // The method of a field's class asks where it is written, while the handler that calls it runs.
      { file: 'src/elicitator.ts', at: 'await this.server.server.elicitInput', kind: 'elicitation', expect: 'rewrite' },
    ],
  },
  {
    name: 'awaited-callbacks',
    entry: 'src/index.ts',
    sites: [
      // Asked inside callbacks the handler awaits (a tracer's span, a timeout, a mutex): each where it is
      // written; a suspended round lets go of the mutex, and the next round takes it again.
      { file: 'src/index.ts', at: 'await server.server.createMessage', kind: 'sampling', expect: 'rewrite' },
      { file: 'src/index.ts', at: 'withTimeout(async () => server.server.elicitInput', kind: 'elicitation', expect: 'rewrite' },
      { file: 'src/index.ts', at: 'const answer = await server.server.elicitInput', kind: 'elicitation', expect: 'rewrite' },
    ],
  },
  {
    // A CommonJS package whose stdio entry is a .then(...).catch(...) chain: serveStdio, the callback's body after it, the .catch handler its onerror.
    name: 'cjs-promise-entry',
    entry: 'src/index.cjs',
    sites: [{ file: 'src/notes.cjs', at: 'await server.server.elicitInput', kind: 'elicitation', expect: 'rewrite' }],
  },
  {
    // Served through the project's own class wrapping StdioServerTransport (this.sdkServer.connect(this.transport)): handed to serveStdio
    // as its transport. The HTTP+SSE entry (an alias, moved to server-legacy/sse by the official codemod) is marked.
    name: 'wrapped-transport',
    entry: 'src/index.ts',
    sites: [
      { file: 'src/app.ts', at: 'await this.sdkServer.server.elicitInput', kind: 'elicitation', expect: 'rewrite' },
      {
        file: 'src/sse.ts',
        at: "new SseTransport('/messages', res)",
        kind: 'entry',
        expect: 'mark',
        because: /a 2026-07-28 client cannot reach this endpoint/,
      },
    ],
  },
  {
    // Work done before a question, counted: an API call, a counter, a date and a random reference, an audit
    // line in a finally. Its tally tool lists every effect: replayed twice, verify sees it on 2026-07-28.
    name: 'effects-ledger',
    entry: 'src/index.ts',
    sites: [
      { file: 'src/confirm.ts', at: 'await server.server.elicitInput', kind: 'elicitation', expect: 'rewrite' },
      { file: 'src/index.ts', at: 'const answer = await server.server.elicitInput', kind: 'elicitation', expect: 'rewrite' },
    ],
  },
  {
    name: 'tool-overloads',
    entry: 'src/index.ts',
    sites: [
      { file: 'src/index.ts', at: 'await server.server.listRoots()', kind: 'roots', expect: 'rewrite' },
      { file: 'src/index.ts', at: 'Send "${body}" to ${to}?', kind: 'elicitation', expect: 'rewrite' },
      { file: 'src/index.ts', at: 'Wipe the ${scope} cache?', kind: 'elicitation', expect: 'rewrite' },
      { file: 'src/index.ts', at: 'await server.server.createMessage', kind: 'sampling', expect: 'rewrite' },
    ],
  },
  {
    name: 'big-dispatcher',
    entry: 'src/index.ts',
    sites: [
      { file: 'src/index.ts', at: 'await server.elicitInput', kind: 'elicitation', expect: 'rewrite' },
      { file: 'src/index.ts', at: 'await server.createMessage', kind: 'sampling', expect: 'rewrite' },
    ],
  },
  {
    // A low-level Server whose tools/list handler computes the list from the project's ToolDef array, lifecycle code
    // reading the client version in oninitialized (marked: a 2026-07-28 client sends no initialize), and a
    // patch-package patch of the old SDK (reported in the notes).
    name: 'low-level-lists',
    entry: 'src/index.ts',
    sites: [
      { file: 'src/tools/remove.ts', at: 'await server.elicitInput', kind: 'elicitation', expect: 'rewrite' },
      {
        file: 'src/lifecycle.ts',
        at: 'server.oninitialized = () => {',
        kind: 'connection',
        expect: 'mark',
        because: /oninitialized = \.\.\. runs once a client has sent initialize, which a 2026-07-28 client never sends/,
      },
    ],
  },
  {
    name: 'cache-mutex',
    entry: 'src/index.ts',
    sites: [
      // The cache filler asks under its lock while a tool runs; the notification handler that also calls it
      // cannot ask a 2026-07-28 client, and is marked where it calls it.
      { file: 'src/context.ts', at: 'await server.server.listRoots()', kind: 'roots', expect: 'rewrite' },
      {
        file: 'src/index.ts',
        at: 'const refreshed = await getContext(server)',
        kind: 'roots',
        expect: 'mark',
        because: /in a notification handler: no request is served there/,
      },
    ],
  },
  {
    name: 'transaction-mutated',
    entry: 'src/index.ts',
    sites: [
      // An open transaction, and an object changed before the question: both made again on each round (the
      // changes are the round's own), committed once, after the question.
      { file: 'src/index.ts', at: 'const answer = await server.server.elicitInput', kind: 'elicitation', expect: 'rewrite' },
      { file: 'src/index.ts', at: 'const shipping = await server.server.elicitInput', kind: 'elicitation', expect: 'rewrite' },
    ],
  },
  {
    name: 'odd-imports',
    entry: 'src/index.ts',
    sites: [
      { file: 'src/compact.ts', at: 'server.server.elicitInput', kind: 'elicitation', expect: 'rewrite' },
      // Loaded with import() when the handler runs: it asks where it is written.
      { file: 'src/lazy.ts', at: 'await server.server.elicitInput', kind: 'elicitation', expect: 'rewrite' },
    ],
  },
  {
    // Paid tools that confirm first: a helper with early returns, a capability check and a fail-open
    // catch, reading module constants and a config set at startup.
    name: 'paid-tools',
    entry: 'src/index.ts',
    sites: [
      // confirmSpend() sets a module-level let of spend.ts from the answer, where it is written; the scenario's
      // last call proves the approval holds for the session. Its capability check reads the request's own.
      { file: 'src/spend.ts', at: 'await server.server.elicitInput', kind: 'elicitation', expect: 'rewrite' },
      { file: 'src/spend.ts', at: 'server.server.getClientCapabilities?.()', kind: 'capabilities', expect: 'rewrite' },
      { file: 'src/confirmDelete.ts', at: 'await server.server.elicitInput', kind: 'elicitation', expect: 'rewrite' },
    ],
  },
  {
    name: 'tool-table',
    entry: 'src/index.ts',
    sites: [
      // Five entries share ToolDef's invoke(); the loop's handler only returns t.invoke(args, { server, extra }):
      // the two entries that ask do it where they are written.
      { file: 'src/tools/delete.ts', at: 'await ctx.server.server.elicitInput', kind: 'elicitation', expect: 'rewrite' },
      { file: 'src/tools/summarize.ts', at: 'await ctx.server.server.createMessage', kind: 'sampling', expect: 'rewrite' },
    ],
  },
  {
    // What the official codemod left on 1.x without a word: tools registered through a bound reference, registrars
    // typed Pick<McpServer, 'tool'>, ErrorCode in types, zod 3 calls in a schemas module that imports no SDK.
    name: 'upgrade-leftovers',
    entry: 'src/index.ts',
    // `code: ErrorCode` (the run names no member 2.x moved to SdkErrorCode: ProtocolErrorCode) and a zod 3
    // required_error are repaired, so nothing is left marked and --check passes.
    sites: [{ file: 'src/index.ts', at: 'await server.server.elicitInput', kind: 'elicitation', expect: 'rewrite' }],
  },
  {
    // Prompt handlers registered through a cast with a 1.x schema as the key: keyed by the method string, they
    // start and answer on both eras (the server threw at start-up, '[object Object]' is not a spec request method).
    name: 'cast-handlers',
    entry: 'src/index.ts',
    sites: [{ file: 'src/index.ts', at: 'await server.server.elicitInput', kind: 'elicitation', expect: 'rewrite' }],
  },
  {
    // Survey tools: a local declared bare and assigned on one branch while the other asks first, a review asking once per
    // item for twelve items (past the client's round limit), a choice list read from a file when the handler runs (an
    // answer outside it refused as 1.x refused it), a local typed with a Map used only before the question.
    name: 'survey-rounds',
    entry: 'src/index.ts',
    sites: [
      { file: 'src/server.ts', at: 'const who = await server.server.elicitInput', kind: 'elicitation', expect: 'rewrite' },
      { file: 'src/server.ts', at: 'const ok = await server.server.elicitInput', kind: 'elicitation', expect: 'rewrite' },
      { file: 'src/tools/checklist.ts', at: 'await server.server.elicitInput', kind: 'elicitation', expect: 'rewrite' },
      { file: 'src/tools/assign.ts', at: 'await server.server.elicitInput', kind: 'elicitation', expect: 'rewrite' },
      { file: 'src/tools/report.ts', at: 'await server.server.elicitInput', kind: 'elicitation', expect: 'rewrite' },
      // Twelve rounds are more than a 2026-07-28 client answers (10 in the SDK's client): marked, so --check fails.
      {
        file: 'src/tools/checklist.ts',
        at: 'for (const entry of RELEASE_CHECKLIST)',
        kind: 'request',
        expect: 'mark',
        because: /may ask 12 times in a loop/,
      },
    ],
    known: {
      verify: BY_DESIGN(
        'a loop asking 12 times is marked: a 2026-07-28 client gives up after 10 rounds until the items are asked together',
        modernFails('checklist all 12 done'),
      ),
    },
    verifyUntouched: [
      'announce beta',
      'announce ask group',
      'announce group declined',
      'announce send cancelled',
      'checklist cancel at 4',
      'assign accept',
      'assign not in list',
      'assign decline',
      'report publish',
      'report cancel',
    ],
  },
  {
    name: 'fastmcp-app',
    entry: 'src/index.ts',
    sites: [
      { file: 'src/index.ts', at: 'await context.elicit(', kind: 'elicitation', expect: 'mark', because: /fastmcp/i },
      { file: 'src/index.ts', at: 'await session.requestSampling(', kind: 'sampling', expect: 'mark', because: /fastmcp/i },
    ],
    known: {
      starts: BY_DESIGN('a fastmcp server serves 2026-07-28 only once fastmcp does', NO_DISCOVER),
      verify: BY_DESIGN('a fastmcp server serves 2026-07-28 only once fastmcp does', NO_DISCOVER),
    },
  },
  {
    name: 'mcp-framework-app',
    entry: 'src/index.ts',
    sites: [
      {
        file: 'src/tools/DraftReplyTool.ts',
        at: 'await this.samplingRequest(',
        kind: 'sampling',
        expect: 'mark',
        because: /mcp-framework/i,
      },
      { file: 'src/tools/ConfirmSendTool.ts', at: 'await this.elicit(', kind: 'elicitation', expect: 'mark', because: /mcp-framework/i },
    ],
    known: {
      starts: BY_DESIGN('an mcp-framework server serves 2026-07-28 only once mcp-framework does', NO_DISCOVER),
      verify: BY_DESIGN('an mcp-framework server serves 2026-07-28 only once mcp-framework does', NO_DISCOVER),
    },
  },
  {
    // Ask-helpers as methods of a class made once at module level (`const asker = new Asker(server)`), called
    // from tools registered in a module that names neither the SDK nor a request (it imports the server); a
    // roots helper caching per session, served on stdio (one client per process, so the cache is right).
    name: 'asker-instance',
    entry: 'src/index.ts',
    sites: [
      { file: 'src/asker.ts', at: 'const res = await this.mcp.server.elicitInput', kind: 'elicitation', expect: 'rewrite' },
      { file: 'src/asker.ts', at: 'const reply = await this.mcp.server.elicitInput', kind: 'elicitation', expect: 'rewrite' },
      { file: 'src/workspace.ts', at: 'await server.server.listRoots()', kind: 'roots', expect: 'rewrite' },
    ],
  },
  {
    // A sessionful Express server, deployed with no MCP_REQUEST_STATE_KEY: a tool pinning a note registers a tool
    // and tells the session its list changed (marked: createMcpHandler's listeners never hear it), and a helper
    // reads the cancellation signal through a cast of the context (left to the official codemod's marker); saves
    // are counted per session id.
    name: 'notes-http',
    entry: 'src/index.ts',
    http: '/mcp',
    serverEnv: {},
    sites: [
      { file: 'src/server.ts', at: 'await server.server.elicitInput', kind: 'elicitation', expect: 'rewrite' },
      { file: 'src/index.ts', at: 'const created = new StreamableHTTPServerTransport', kind: 'entry', expect: 'rewrite' },
      {
        file: 'src/server.ts',
        at: 'server.registerTool(`open_${name}`',
        kind: 'list-change',
        expect: 'mark',
        because: /never reaches: a listening client is not told/,
      },
      {
        file: 'src/server.ts',
        at: 'server.sendToolListChanged()',
        kind: 'list-change',
        expect: 'mark',
        because: /never reaches: a listening client is not told/,
      },
      // Saves counted per session: a 2026-07-28 request has none, so every modern client would share one count.
      {
        file: 'src/server.ts',
        at: "const session = extra.sessionId ?? 'local'",
        kind: 'connection',
        expect: 'mark',
        because: /a 2026-07-28 request has no session/,
      },
      {
        file: 'src/server.ts',
        at: "savesBySession.get(extra.sessionId ?? 'local')",
        kind: 'connection',
        expect: 'mark',
        because: /a 2026-07-28 request has no session/,
      },
    ],
  },
  {
    // A send that needs the provider's confirmation token: the token is asked for before the question (an API
    // call, journaled), the question is gated on the client's capability and asked with the request's signal on
    // one branch of a conditional, a catch cancels the token, and the tool is wrapped by a JSON helper.
    name: 'mail-confirm',
    entry: 'src/index.ts',
    sites: [
      {
        file: 'src/tools.ts',
        at: '? await server.server.elicitInput(request, { signal: extra.signal })',
        kind: 'elicitation',
        expect: 'rewrite',
      },
      { file: 'src/tools.ts', at: ': await server.server.elicitInput(request);', kind: 'elicitation', expect: 'rewrite' },
      { file: 'src/tools.ts', at: '!server.server.getClientCapabilities()?.elicitation', kind: 'capabilities', expect: 'rewrite' },
    ],
    known: {
      // The wrapper types the context it hands on as 1.x's ({ signal: AbortSignal }): the reads are marked, with
      // the retyping to do, and --check fails until it is done. Verify passes on both eras, each effect once.
      tsc: BY_DESIGN(
        "a wrapper declaring SDK 1.x's context shape is marked to be typed ServerContext by hand",
        /TS2769: No overload matches this call/,
      ),
    },
  },
  {
    // Plain CommonJS JavaScript, no types: the helper that asks is exported with module.exports and required,
    // without an extension, by a module that registers the tool and names neither the SDK nor a request; another
    // module registers a tool in SDK 1.x's shorthand (`server.tool(...)`) and requires nothing of the SDK either.
    name: 'cjs-helpers',
    entry: 'src/index.js',
    tsconfigs: [],
    sites: [{ file: 'src/confirm.js', at: 'await server.server.elicitInput', kind: 'elicitation', expect: 'rewrite' }],
  },
];

interface Outcome {
  run: UserProjectRun;
  originalTsc: Ran[];
  migratedTsc: Ran[];
  check: CliRun;
  verify: VerifyResult;
}

const gate = limiter(2);
const outcomes = new Map<string, Promise<Outcome>>();

function scenarioOf(project: UserProject) {
  return parseScenario(JSON.parse(fs.readFileSync(path.join(PROJECTS_DIR, project.name, 'scenario.json'), 'utf8')));
}

/** Everything a test of the project reads, run once per project, two projects at a time. */
function outcomeOf(project: UserProject): Promise<Outcome> {
  let pending = outcomes.get(project.name);
  if (!pending) {
    pending = gate(async () => {
      const run = await migrateAsUser({ name: project.name, source: path.join(PROJECTS_DIR, project.name) });
      const tsconfigs = project.tsconfigs ?? ['tsconfig.json'];
      const originalTsc: Ran[] = [];
      const migratedTsc: Ran[] = [];
      await timed(run.timings, 'tsc', async () => {
        for (const tsconfig of tsconfigs) originalTsc.push(await typecheck(run.original, tsconfig));
        for (const tsconfig of tsconfigs) migratedTsc.push(await typecheck(run.migrated, tsconfig));
      });
      const check = await timed(run.timings, '--check', () => runCli(run.migrated, ['.', '--check', '--json']));
      const verify = await timed(run.timings, 'verify', () =>
        verifyProject(run, project.entry, scenarioOf(project), { runFrom: project.serveFrom, http: project.http, env: project.serverEnv }),
      );
      return { run, originalTsc, migratedTsc, check, verify };
    });
    outcomes.set(project.name, pending);
  }
  return pending;
}

/** tsc's diagnostics, one per line, for an assertion message. */
function tscErrors(runs: Ran[]): string[] {
  return runs.flatMap(r =>
    r.status === 0 ? [] : [`exit ${r.status}`, ...`${r.stdout}${r.stderr}`.split('\n').filter(l => /error TS\d+/.test(l))],
  );
}

/** `USER_PROJECTS=a,b npx vitest run test/user-projects.test.ts` runs only those projects. */
const only = process.env.USER_PROJECTS?.split(',');
const selected = only ? PROJECTS.filter(p => only.includes(p.name)) : PROJECTS;

// Start every project now: the describes below wait for theirs in turn while the others run.
for (const project of selected) void outcomeOf(project).catch(() => undefined);

afterAll(async () => {
  // Where the time goes, for the suite's budget (seconds per step, per project).
  const rows = await Promise.all(selected.map(async p => [p.name, (await outcomeOf(p).catch(() => undefined))?.run.timings] as const));
  const line = (t: Record<string, number>) =>
    Object.entries(t)
      .map(([k, v]) => `${k} ${(v / 1000).toFixed(1)}`)
      .join(', ');
  console.log(rows.map(([name, t]) => `${name}: ${t ? line(t) : 'failed'}`).join('\n'));
});

for (const project of selected) {
  describe(`user project: ${project.name}`, () => {
    let o: Outcome;
    beforeAll(async () => {
      o = await outcomeOf(project);
    }, 1_800_000);
    afterAll(() => {
      if (o) fs.rmSync(o.run.base, { recursive: true, force: true });
    });
    const known = project.known ?? {};
    const original = path.join(PROJECTS_DIR, project.name);

    it('the original typechecks with its own tsc and passes its own scenario on the legacy era', () => {
      const errors = tscErrors(o.originalTsc);
      expect(errors, errors.join('\n')).toEqual([]);
      const before = o.verify.rows.filter(r => r.run === 'before');
      expect(before.length, formatVerifyTable(o.verify)).toBe(scenarioOf(project).calls.length);
      expect(
        before.filter(r => !r.ok).map(r => `${r.call}: ${r.reason}`),
        formatVerifyTable(o.verify),
      ).toEqual([]);
    });

    check(
      'the CLI run prints a JSON report and exits 0, or non-zero when a file failed or the server would throw at start-up',
      known.cli,
      () => {
        const { report, status, stderr } = o.run.migration;
        expect(report, stderr).toBeDefined();
        const failed = report!.summary.filesErrored;
        if (failed > 0) expect(status, `${failed} file(s) failed, exit ${status}`).not.toBe(0);
        else expect(status, stderr).toBe(report!.summary.startFailures > 0 ? EXIT_WONT_START : 0);
      },
    );

    for (const site of project.sites) {
      const verb = site.expect === 'rewrite' ? 'rewritten' : 'marked';
      check(`${site.file} ${site.kind} at \`${site.at}\` is reported ${verb}`, site.known, () =>
        assertSite(o.run.migration.report, original, site),
      );
    }

    check('reports no site the original does not have', known.unexpected, () => {
      const extra = unexpectedSites(o.run.migration.report!, original, project.sites);
      expect(extra.map(describeSite), extra.map(describeSite).join('\n')).toEqual([]);
    });

    check('every marked site has a // mcp-migrate: marker line in its file', known.markers, () => {
      for (const site of o.run.migration.report!.sites.filter(s => s.outcome === 'marked')) {
        const markers = markerLines(path.join(o.run.migrated, site.file));
        expect(
          markers.some(l => l.includes(site.reason.slice(0, 60))),
          `no marker for ${describeSite(site)}`,
        ).toBe(true);
      }
    });

    check('--check on the migrated project exits 1 exactly when something is left', known.check, () => {
      const report = o.run.migration.report!;
      const notRewritten = project.sites.filter(site => {
        try {
          assertSite(report, original, { ...site, expect: 'rewrite' });
          return false;
        } catch {
          return true;
        }
      });
      const left = [...notRewritten.map(s => `${s.file}: ${s.at}`), ...markersUnder(o.run.migrated)];
      expect(o.check.status, `left: ${left.join(' | ') || 'nothing'}\n${o.check.stderr}`).toBe(left.length > 0 ? 1 : 0);
    });

    check('installing what the notes name succeeds (and nothing is asked when package.json is unchanged)', known.install, () => {
      const manifestChanged = o.run.migration.report!.files.some(f => /(^|\/)package\.json$/.test(f.file) && f.outcome === 'changed');
      if (!o.run.install) {
        expect(manifestChanged, 'package.json changed but the notes asked for no install').toBe(false);
        return;
      }
      expect(o.run.install.status, o.run.install.stderr).toBe(0);
    });

    check("the project's own tsc passes after the install", known.tsc, () => {
      const errors = tscErrors(o.migratedTsc);
      expect(errors, errors.join('\n')).toEqual([]);
    });

    check('the migrated server starts and serves both eras', known.starts, () => {
      const runs = o.verify.runs;
      expect(runs.modern.connected, `${runs.modern.fatal}\n${runs.modern.stderr}`).toBe(true);
      expect(runs.shim.connected, `${runs.shim.fatal}\n${runs.shim.stderr}`).toBe(true);
    });

    check('verify: the same final results on both eras (accept, decline, cancel)', known.verify, () => {
      expect(o.verify.ok, formatVerifyTable(o.verify)).toBe(true);
    });

    if (project.style) {
      check('rewritten files keep their indentation (tabs, four spaces) and line endings (CRLF)', known.style, () => {
        const read = (file: string) => fs.readFileSync(path.join(o.run.migrated, file), 'utf8');
        const problems: string[] = [];
        read('src/tabs.ts')
          .split('\n')
          .forEach((l, i) => /^ +\S/.test(l) && problems.push(`src/tabs.ts:${i + 1} indented with spaces`));
        read('src/four.ts')
          .split('\n')
          .forEach(
            (l, i) => /^ */.exec(l)![0].length % 4 !== 0 && problems.push(`src/four.ts:${i + 1} indented by ${/^ */.exec(l)![0].length}`),
          );
        read('src/crlf.ts')
          .split('\n')
          .forEach(
            (l, i) =>
              i < read('src/crlf.ts').split('\n').length - 1 &&
              !l.endsWith('\r') &&
              problems.push(`src/crlf.ts:${i + 1} ends with LF alone`),
          );
        expect(problems, problems.join('\n')).toEqual([]);
      });
    }

    if (project.verifyUntouched) {
      it(`verify: the calls the known difference does not touch pass on both eras (${project.verifyUntouched.join(', ')})`, () => {
        const rows = o.verify.rows.filter(r => project.verifyUntouched!.includes(r.call));
        expect(rows.length, formatVerifyTable(o.verify)).toBe(project.verifyUntouched!.length * 3);
        expect(
          rows.filter(r => !r.ok).map(r => `${r.call} ${r.run}: ${r.reason}`),
          formatVerifyTable(o.verify),
        ).toEqual([]);
      });
    }
  });
}
